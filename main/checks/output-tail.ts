// Keeps the last lines of a command's output in bounded memory, however much it prints (DESIGN.md
// §7: "output tail kept"). Only the newest bytes are held; lines are cut at the end. Any Node process.

/** The issue and the resume prompt want the last 40 lines of a failing command. */
export const TAIL_LINES = 40;
/** 40 lines of up to ~400 characters each; a longer tail is cut from the front. */
export const TAIL_BYTES = 16 * 1024;
/** A single line longer than this is shortened in the middle: a minified bundle is not a useful tail. */
const MAX_LINE_CHARS = 1_000;

export class OutputTail {
  private buf: Buffer = Buffer.alloc(0);
  private total = 0;

  constructor(private readonly lines = TAIL_LINES, private readonly bytes = TAIL_BYTES) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    // Only the newest `bytes * 2` are kept: the window that can still hold the last lines once cut.
    const keep = this.bytes * 2;
    if (chunk.length >= keep) {
      this.buf = Buffer.from(chunk.subarray(chunk.length - keep));
      return;
    }
    const joined = Buffer.concat([this.buf, chunk]);
    this.buf = joined.length > keep ? Buffer.from(joined.subarray(joined.length - keep)) : joined;
  }

  /** Bytes seen in all. */
  get totalBytes(): number {
    return this.total;
  }

  /** The last lines as text (ANSI colour codes removed), at most `bytes` long. */
  text(): string {
    const cut = this.total > this.buf.length;
    let lines = this.buf
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
