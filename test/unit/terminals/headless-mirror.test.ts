// The headless mirror (DESIGN.md §6) with real @xterm/headless: output parsed in pieces gives the
// same screen and snapshot as one whole write, whatever the pieces cut (a surrogate pair, an escape
// sequence), and an idle mirror that parsed a large backlog holds no more than one that parsed it in
// small bits (xterm keeps the buffer it decodes a write into).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import { describe, expect, it } from 'vitest';
import { HeadlessMirror, MIRROR_SCROLLBACK_LINES, MIRROR_WRITE_PIECE_CHARS } from '../../../main/terminals/headless-mirror.js';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;

/** What a mirror shows, had it parsed `data` in one write. */
async function parsedWhole(data: string): Promise<{ snapshot: string; screen: string }> {
  const term = new Terminal({ cols: 80, rows: 24, scrollback: MIRROR_SCROLLBACK_LINES, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  await new Promise<void>((resolve) => term.write(data, resolve));
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) lines.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
  const result = { snapshot: serializer.serialize({ scrollback: MIRROR_SCROLLBACK_LINES }), screen: lines.join('\n') };
  term.dispose();
  return result;
}

/** Lines of coloured text, with a surrogate pair and an escape sequence across every piece boundary. */
function output(totalChars: number): string {
  let data = '';
  for (let i = 0; data.length < totalChars; i++) {
    const line = `${String(i).padStart(5, '0')} \x1b[1;3${i % 8}mstep\x1b[0m compiled src/module-${i % 97}.ts \u{1F600} ok\r\n`;
    const boundary = Math.ceil((data.length + 1) / MIRROR_WRITE_PIECE_CHARS) * MIRROR_WRITE_PIECE_CHARS;
    if (data.length + line.length > boundary) {
      // Pad so the next boundary falls inside "\x1b[" or between the halves of the emoji, in turn.
      const target = i % 2 === 0 ? line.indexOf('\x1b') + 1 : line.indexOf('\u{1F600}') + 1;
      data += 'x'.repeat(Math.max(0, boundary - data.length - target));
    }
    data += line;
  }
  return data;
}

describe('headless mirror', () => {
  it('shows and snapshots output parsed in pieces exactly as parsed whole', async () => {
    // Under the flood's tail (256 K chars): all of it is parsed, in about 50 pieces.
    const data = output(200_000);
    expect(data.length).toBeGreaterThan(MIRROR_WRITE_PIECE_CHARS * 40);
    const mirror = new HeadlessMirror(80, 24);
    try {
      mirror.push(data);
      const [screen, snapshot] = await Promise.all([mirror.screenText(), mirror.snapshot()]);
      const whole = await parsedWhole(data);
      expect(screen).toBe(whole.screen);
      expect(snapshot).toBe(whole.snapshot);
      expect(screen).toContain('\u{1F600} ok');
    } finally {
      mirror.dispose();
    }
  });

  it('holds no more for having parsed a large backlog at once than for small bits', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const data = output(300_000);
    /** ArrayBuffers' memory once garbage is collected (their backing stores are freed after the collection). */
    const settled = async (): Promise<number> => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return process.memoryUsage().arrayBuffers;
    };
    /** External memory (ArrayBuffers) per idle mirror, after `feed`. */
    const perMirror = async (feed: (m: HeadlessMirror) => Promise<void>): Promise<number> => {
      const before = await settled();
      const mirrors = Array.from({ length: 10 }, () => new HeadlessMirror(80, 24));
      for (const m of mirrors) await feed(m);
      const held = (await settled() - before) / mirrors.length;
      for (const m of mirrors) m.dispose();
      return held;
    };
    // The backlog arrives before anyone reads: one parse of the whole tail.
    const atOnce = await perMirror(async (m) => {
      m.push(data);
      await m.screenText();
    });
    // Read after every small bit: each parse is small.
    const inBits = await perMirror(async (m) => {
      for (let at = 0; at < data.length; at += 2048) {
        m.push(data.slice(at, at + 2048));
        await m.screenText();
      }
    });
    // Both hold the screen and scrollback (~220 KB of cells); a 256 K-char write once made xterm keep a 512 KB buffer more.
    expect(atOnce).toBeLessThan(inBits + 100_000);
    // Twenty parses of 300 K chars: ~2 s alone, past the 15 s default on a runner busy with the other projects.
  }, 60_000);

  it('after a flood shows and snapshots its last lines as a whole parse would, having parsed only them', async () => {
    // Over MIRROR_BACKLOG_MAX_CHARS in 4 K reads, as a pty gives them: a flood.
    const data = output(1_500_000);
    const mirror = new HeadlessMirror(80, 24);
    try {
      for (let at = 0; at < data.length; at += 4096) mirror.push(data.slice(at, at + 4096));
      const parsed: number[] = [];
      const write = (mirror as unknown as { write: (d: string) => Promise<void> }).write.bind(mirror);
      (mirror as unknown as { write: (d: string) => Promise<void> }).write = (d) => (parsed.push(d.length), write(d));
      const [screen, snapshot] = await Promise.all([mirror.screenText(), mirror.snapshot()]);
      expect(mirror.floods).toBeGreaterThan(0);
      const whole = await parsedWhole(data);
      expect(screen).toBe(whole.screen);
      expect(snapshot).toBe(whole.snapshot);
      // Scrollback and screen are 224 lines of ~60 chars here: a few reads' worth, not the 256 K cap.
      expect(parsed.reduce((a, b) => a + b, 0)).toBeLessThan(30_000);
    } finally {
      mirror.dispose();
    }
  });
});
