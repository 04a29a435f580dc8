// Keeps the last lines of a command's output in bounded memory, however much it prints (DESIGN.md
// §7: "output tail kept"). Only the newest bytes are held; lines are cut at the end. Any Node process.

/** The issue and the resume prompt want the last 40 lines of a failing command. */
export const TAIL_LINES = 40;
/** 40 lines of up to ~400 characters each; a longer tail is cut from the front. */
export const TAIL_BYTES = 16 * 1024;
/** A single line longer than this is shortened in the middle: a minified bundle is not a useful tail. */
const MAX_LINE_CHARS = 1_000;

export class OutputTail {
  /** A fixed ring of the newest bytes: no allocation per chunk, whatever the output's size. */
  private readonly ring: Buffer;
  private pos = 0;
  private total = 0;

  constructor(private readonly lines = TAIL_LINES, private readonly bytes = TAIL_BYTES) {
    // Twice the tail: the window that still holds the last lines once the first (cut) line is dropped.
    this.ring = Buffer.alloc(bytes * 2);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const cap = this.ring.length;
    const src = chunk.length > cap ? chunk.subarray(chunk.length - cap) : chunk;
    const first = Math.min(src.length, cap - this.pos);
    src.copy(this.ring, this.pos, 0, first);
    src.copy(this.ring, 0, first);
    this.pos = (this.pos + src.length) % cap;
  }

  /** The newest bytes in order (at most the ring's size). */
  private window(): Buffer {
    if (this.total < this.ring.length) return this.ring.subarray(0, this.total);
    return Buffer.concat([this.ring.subarray(this.pos), this.ring.subarray(0, this.pos)]);
  }

  /** Bytes seen in all. */
  get totalBytes(): number {
    return this.total;
  }

  /** The last lines as text (ANSI colour codes removed), at most `bytes` long. */
  text(): string {
    const win = this.window();
    const cut = this.total > win.length;
    let lines = win
      .toString('utf8')
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      .split(/\r?\n|\r/);
    if (cut) lines = lines.slice(1); // the first line in the window is likely a fragment
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    lines = lines.slice(-this.lines).map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS / 2)} … ${l.slice(-MAX_LINE_CHARS / 2)}` : l));
    let out = lines.join('\n');
    if (out.length > this.bytes) out = out.slice(out.length - this.bytes);
    return out;
  }
}
