// The bounded output tail: whatever the chunking, it holds exactly the last lines of the output.
import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../../main/checks/output-tail.js';

describe('OutputTail', () => {
  it('keeps the last 40 lines however the output is chunked, across many ring wraps', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(i % 97)}`).join('\n') + '\n';
    const bytes = Buffer.from(text);
    const expected = text.trimEnd().split('\n').slice(-40).join('\n');
    for (const size of [1, 7, 1000, 4096, 32 * 1024, 65_536, bytes.length]) {
      const tail = new OutputTail();
      for (let i = 0; i < bytes.length; i += size) tail.push(bytes.subarray(i, i + size));
      expect(tail.text()).toBe(expected);
      expect(tail.totalBytes).toBe(bytes.length);
    }
  });

  it('returns short output whole, strips colour codes, and shortens a giant line', () => {
    const t = new OutputTail();
    t.push(Buffer.from('\x1b[31mred\x1b[0m\nok\n'));
    expect(t.text()).toBe('red\nok');
    const g = new OutputTail();
    g.push(Buffer.from('start\n' + 'y'.repeat(5000) + '\n'));
    const lines = g.text().split('\n');
    expect(lines[0]).toBe('start');
    expect(lines[1]?.length).toBeLessThan(1100);
    expect(lines[1]).toContain(' … ');
  });
});
