// Writing `(pid N)` back into environment.md changes that one line and no other byte.
import { describe, expect, it } from 'vitest';
import { withPid } from '../../../main/checks/pid-writeback.js';
import { pidVerdict } from '../../../main/checks/probe-local.js';
import { MarkdownDoc } from '../../../main/state/markdown-doc.js';

const write = (text: string | Buffer, line: number, pid: number) =>
  withPid(typeof text === 'string' ? MarkdownDoc.fromString(text) : new MarkdownDoc(text), line, pid)?.toString('latin1');

describe('withPid', () => {
  it('replaces an existing (pid N)', () => {
    expect(write('## Running Services\n- API server: http://localhost:8000 (pid 1234) start: `x`\n', 1, 42)).toBe(
      '## Running Services\n- API server: http://localhost:8000 (pid 42) start: `x`\n',
    );
  });

  it('inserts (pid N) before start:, or at the end of the line, keeping CRLF and trailing text', () => {
    expect(write('## S\r\n- API: http://localhost:8000 start: `npm run dev`\r\n- other\r\n', 1, 7)).toBe(
      '## S\r\n- API: http://localhost:8000 (pid 7) start: `npm run dev`\r\n- other\r\n',
    );
    expect(write('## S\n- Worker: running   \n', 1, 9)).toBe('## S\n- Worker: running (pid 9)   \n');
    expect(write('## S\n- Worker: running', 1, 9)).toBe('## S\n- Worker: running (pid 9)');
  });

  it('finds the pid on a continuation line of the item', () => {
    expect(write('## S\n- API: http://localhost:8000\n  (pid 5) start: `x`\n- B: pid 6\n', 1, 8)).toBe('## S\n- API: http://localhost:8000\n  (pid 8) start: `x`\n- B: pid 6\n');
  });

  it('leaves every other byte as it was, odd encodings included', () => {
    const before = Buffer.concat([
      Buffer.from('# Env\n\n## Notes\n- caf'),
      Buffer.from([0xe9, 0xff]), // latin-1 and an invalid UTF-8 byte
      Buffer.from('\r\n## Running Services\n- API: http://localhost:8000 (pid 1)\n\n<!-- comment -->\n  trailing  \n'),
    ]);
    const after = Buffer.from(write(before, 5, 31337) ?? '', 'latin1');
    const expected = Buffer.from(before.toString('latin1').replace('(pid 1)', '(pid 31337)'), 'latin1');
    expect(after.equals(expected)).toBe(true);
  });
});

describe('pidVerdict', () => {
  it('fails a pid written in another boot even when the number is alive now', () => {
    expect(pidVerdict(100, true, 'boot-a', 'boot-b')).toMatchObject({ status: 'fail' });
    expect(pidVerdict(100, true, 'boot-a', 'boot-b').detail).toMatch(/another boot.*some other process/);
    expect(pidVerdict(100, true, 'boot-b', 'boot-b').status).toBe('pass');
    expect(pidVerdict(100, false, 'boot-b', 'boot-b').status).toBe('fail');
  });
});
