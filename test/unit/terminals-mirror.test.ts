// The headless mirror's snapshot: the live screen plus a scrollback rebuilt from the bounded ring
// of recent output, rendered into a real headless xterm as a view would. Covers a ring that begins
// mid escape sequence and mid UTF-8 character, and a full-screen program on the alternate screen.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { HeadlessMirror } from '../../main/terminals/headless-mirror.js';
import { OUTPUT_RING_BYTES, OutputRing } from '../../main/terminals/output-ring.js';
import { lastLines } from '../../main/terminals/scrollback-replay.js';

const COLS = 80;
const ROWS = 24;

/** The snapshot written into a fresh terminal of the mirror's size, as a view starts from it. */
async function render(snapshot: string): Promise<InstanceType<typeof xtermHeadless.Terminal>> {
  const term = new xtermHeadless.Terminal({ cols: COLS, rows: ROWS, scrollback: 5000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(snapshot, resolve));
  return term;
}

function lines(term: InstanceType<typeof xtermHeadless.Terminal>, buffer = term.buffer.active): string[] {
  const out: string[] = [];
  for (let y = 0; y < buffer.length; y++) out.push(buffer.getLine(y)?.translateToString(true) ?? '');
  return out;
}

const screenOf = (term: InstanceType<typeof xtermHeadless.Terminal>): string => lines(term).slice(-ROWS).join('\n');
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('output ring', () => {
  it('keeps everything until the cap, then the last bytes, starting after a line feed', () => {
    const ring = new OutputRing(32);
    ring.push('one\r\ntwo\r\n');
    expect(ring.text()).toBe('one\r\ntwo\r\n');
    ring.push('three\r\nfour\r\nfive\r\nsix\r\nseven\r\n');
    // 39 bytes pushed, 32 kept: the kept bytes start inside "two"; the text starts after its line.
    expect(ring.text()).toBe('three\r\nfour\r\nfive\r\nsix\r\nseven\r\n');
    ring.push('x'.repeat(100) + '\r\nlast\r\n');
    expect(ring.text()).toBe('last\r\n');
    ring.clear();
    expect(ring.text()).toBe('');
  });

  it('matches the last bytes of everything pushed, chunk after chunk, as it wraps around', () => {
    const cap = 300;
    const ring = new OutputRing(cap);
    let all = Buffer.alloc(0);
    for (let i = 0; i < 400; i++) {
      const chunk = i % 7 === 0 ? `line ${i} ✓\r\n` : `${'é'.repeat(i % 5)}x${i}`;
      ring.push(chunk);
      all = Buffer.concat([all, Buffer.from(chunk)]);
      const kept = all.subarray(Math.max(0, all.length - cap));
      const want = all.length <= cap ? kept.toString() : kept.toString('utf8', kept.indexOf(0x0a) + 1);
      expect(ring.text(), `after chunk ${i}`).toBe(kept.indexOf(0x0a) < 0 && all.length > cap ? '' : want);
    }
  });

  it('never begins inside a UTF-8 character or an escape sequence it cut', () => {
    const line = '\x1b[31m✓é\x1b[0m\r\n';
    const size = bytes(line);
    for (let cut = 0; cut < size; cut++) {
      // Four lines pushed; the kept bytes begin `cut` bytes into the third: the text is the fourth.
      const ring = new OutputRing(2 * size - cut);
      ring.push(line.repeat(4));
      expect(ring.text(), `cut at byte ${cut}`).toBe(line);
    }
  });
});

describe('last lines of the output replayed', () => {
  it('starts at a line start, with the cursor line counted', () => {
    expect(lastLines('a\r\nb\r\nc\r\n', 2)).toBe('b\r\nc\r\n');
    expect(lastLines('a\nb\nprompt> ', 2)).toBe('b\nprompt> ');
    expect(lastLines('a\nb\n', 5)).toBe('a\nb\n');
  });
});

describe('headless mirror snapshot', () => {
  it('rebuilds the scrollback of numbered lines in order, none doubled, with the exact screen', async () => {
    const mirror = new HeadlessMirror(COLS, ROWS);
    for (let i = 0; i < 5000; i += 100) {
      let chunk = '';
      for (let k = i; k < i + 100; k++) chunk += `\x1b[3${(k % 7) + 1}mn=${String(k).padStart(5, '0')}\x1b[0m\r\n`;
      mirror.push(chunk);
    }
    const view = await render(await mirror.snapshot());
    expect(screenOf(view)).toBe(await mirror.screenText());
    const numbers = lines(view)
      .map((l) => /^n=(\d{5})$/.exec(l)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    expect(numbers.at(-1)).toBe(4999);
    // A 1,000-line scrollback above a screen holding the last 23 lines and the cursor's blank line.
    expect(numbers).toHaveLength(1000 + ROWS - 1);
    numbers.forEach((n, i) => i > 0 && expect(n).toBe((numbers[i - 1] as number) + 1));
    const first = view.buffer.active.getLine(0)?.getCell(0);
    expect(first?.isFgPalette() && first.getFgColor()).toBe(((numbers[0] as number) % 7) + 1);
    mirror.dispose();
  });

  it('keeps the top of the screen through a shrink and a grow again, as a view resizing does', async () => {
    const mirror = new HeadlessMirror(COLS, ROWS);
    mirror.push('Agent banner\r\n' + Array.from({ length: 15 }, (_, i) => `line ${i}`).join('\r\n'));
    mirror.resize(COLS, 10);
    mirror.resize(COLS, ROWS);
    const screen = await mirror.screenText();
    expect(screen.split('\n')[0]).toBe('Agent banner');
    const view = await render(await mirror.snapshot());
    expect(lines(view).filter((l) => l === 'Agent banner')).toHaveLength(1);
    mirror.dispose();
  });

  for (const [where, marker] of [
    ['mid escape sequence', '[3'],
    ['mid UTF-8 character', '✓'],
  ] as const) {
    it(`gives clean whole lines when the kept output starts ${where}`, async () => {
      // Bold on and off, over and over: bytes without width, so the kept output is under 1,000 lines.
      const line = (k: number): string => `\x1b[3${(k % 7) + 1}mrow ${String(k).padStart(4, '0')} ✓ é\x1b[0m${'\x1b[1m\x1b[22m'.repeat(12)}\r\n`;
      const cutLine = line(9999);
      // Where in the cut line the kept bytes begin: inside "\x1b[3" or inside the 3-byte "✓".
      const offset = Buffer.from(cutLine).indexOf(Buffer.from(marker)) + 1;
      let rest = '';
      let k = 0;
      while (bytes(rest) < OUTPUT_RING_BYTES) rest += line(k++);
      // Whole lines, then a padding line, so that the ring's cap begins `offset` bytes into the cut line.
      const want = OUTPUT_RING_BYTES - (bytes(cutLine) - offset);
      while (bytes(rest) > want - 40) rest = rest.slice(0, rest.lastIndexOf('\r\n', rest.length - 3) + 2);
      rest += `pad ${'p'.repeat(want - bytes(rest) - 6)}\r\n`;
      expect(bytes(cutLine) - offset + bytes(rest)).toBe(OUTPUT_RING_BYTES);
      const mirror = new HeadlessMirror(COLS, ROWS);
      mirror.push('older output that no longer fits\r\n'.repeat(50));
      mirror.push(cutLine + rest);
      const view = await render(await mirror.snapshot());
      const all = lines(view);
      expect(all.join('\n')).not.toMatch(/\[3\d?m|\uFFFD|row 9999/);
      // Everything after the cut line, in order, with its colour.
      expect(all[0]).toBe('row 0000 ✓ é');
      expect(view.buffer.active.getLine(0)?.getCell(0)?.getFgColor()).toBe(1);
      expect(screenOf(view)).toBe(await mirror.screenText());
      mirror.dispose();
    });
  }

  it('keeps the scrollback of the normal screen under a full-screen program on the alternate screen', async () => {
    const mirror = new HeadlessMirror(COLS, ROWS);
    let out = '';
    for (let k = 0; k < 200; k++) out += `shell line ${k}\r\n`;
    mirror.push(out + '\x1b[?1049h\x1b[H\x1b[2Jfull-screen program\x1b[5;1Hits status line');
    const view = await render(await mirror.snapshot());
    expect(view.buffer.active.type).toBe('alternate');
    expect(screenOf(view)).toBe(await mirror.screenText());
    const normal = lines(view, view.buffer.normal).filter((l) => l !== '');
    expect(normal).toEqual(Array.from({ length: 200 }, (_, k) => `shell line ${k}`));
    mirror.dispose();
  });

  it('gives each snapshot only its own lines, whatever the snapshots before it replayed', async () => {
    const tall = new HeadlessMirror(COLS, ROWS);
    tall.push(Array.from({ length: 3000 }, (_, k) => `\x1b[1;4${k % 8}mtall ${k}`).join('\r\n') + '\x1b[?1049h\x1b[5;20r\x1b[4h\x1b(0');
    await render(await tall.snapshot());
    tall.dispose();
    const short = new HeadlessMirror(COLS, ROWS);
    short.push(Array.from({ length: 40 }, (_, k) => `short ${k}`).join('\r\n'));
    const view = await render(await short.snapshot());
    expect(lines(view).filter((l) => l !== '')).toEqual(Array.from({ length: 40 }, (_, k) => `short ${k}`));
    const cell = view.buffer.active.getLine(0)?.getCell(0);
    expect(cell?.isBgDefault() && !cell.isBold()).toBe(true);
    expect(screenOf(view)).toBe(await short.screenText());
    short.dispose();
  });
});
