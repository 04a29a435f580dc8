// The most recent raw output of one terminal, bounded: what a snapshot's scrollback is rebuilt from
// (scrollback-replay.ts) so the live mirror need not keep a parsed scrollback for a session nobody
// is viewing. Kept as UTF-8 bytes in one buffer that grows to its cap and then wraps around.
// Runs in the supervisor's process.

/**
 * The cap, in bytes: ~1,000 lines of 80 columns with colour codes (~130 bytes a line), i.e. about
 * the MIRROR_SCROLLBACK_LINES a view gets; older output stays in the transcript.
 */
export const OUTPUT_RING_BYTES = 128 * 1024;
/** First allocation: a session that prints little costs little; doubles up to the cap. */
const INITIAL_BYTES = 8 * 1024;
const LF = 0x0a;

export class OutputRing {
  private buf: Buffer | null = null;
  /** Where the oldest byte is (0 until the buffer wrapped). */
  private start = 0;
  private length = 0;
  /** Whether older output was dropped: the contents may then begin anywhere, even mid-character. */
  private dropped = false;

  constructor(private readonly cap = OUTPUT_RING_BYTES) {}

  push(data: string): void {
    if (data.length === 0) return;
    if (this.pushInPlace(data)) return;
    let bytes = Buffer.from(data, 'utf8');
    if (bytes.length >= this.cap) {
      bytes = bytes.subarray(bytes.length - this.cap);
      this.dropped = true;
      this.start = 0;
      this.length = 0;
    }
    const buf = this.room(this.length + bytes.length);
    const overflow = this.length + bytes.length - buf.length;
    if (overflow > 0) {
      this.dropped = true;
      this.start = (this.start + overflow) % buf.length;
      this.length -= overflow;
    }
    const end = (this.start + this.length) % buf.length;
    const first = Math.min(bytes.length, buf.length - end);
    bytes.copy(buf, end, 0, first);
    if (first < bytes.length) bytes.copy(buf, 0, first);
    this.length += bytes.length;
  }

  /**
   * The hot path (every chunk of output): encodes straight into the buffer, with no copy, when the
   * chunk surely fits before the buffer's end (a UTF-16 unit is at most 3 bytes of UTF-8).
   */
  private pushInPlace(data: string): boolean {
    const buf = this.buf;
    if (!buf) return false;
    const end = (this.start + this.length) % buf.length;
    const atCap = buf.length >= this.cap;
    if (end + data.length * 3 > buf.length || (!atCap && this.length + data.length * 3 > buf.length)) return false;
    const n = buf.write(data, end, 'utf8');
    const free = buf.length - this.length;
    if (n <= free) {
      this.length += n;
    } else {
      // Full: the bytes written over were the oldest.
      this.dropped = true;
      this.start = (this.start + n - free) % buf.length;
      this.length = buf.length;
    }
    return true;
  }

  clear(): void {
    this.buf = null;
    this.start = 0;
    this.length = 0;
    this.dropped = false;
  }

  /**
   * The output kept, as text that starts cleanly: when older output was dropped, from just after
   * the first line feed, so the text never begins inside a UTF-8 character (a line feed byte is
   * never part of one) or inside the escape sequence it cut (sequences end before a line feed).
   */
  text(): string {
    if (!this.buf || this.length === 0) return '';
    const head = this.buf.subarray(this.start, Math.min(this.buf.length, this.start + this.length));
    const tail = this.buf.subarray(0, this.length - head.length);
    const all = tail.length > 0 ? Buffer.concat([head, tail]) : head;
    if (!this.dropped) return all.toString('utf8');
    const lf = all.indexOf(LF);
    return lf < 0 ? '' : all.toString('utf8', lf + 1);
  }

  /** A buffer that holds `needed` bytes (up to the cap), grown by doubling with contents in order. */
  private room(needed: number): Buffer {
    const have = this.buf?.length ?? 0;
    if (this.buf && (needed <= have || have >= this.cap)) return this.buf;
    let size = Math.max(have, INITIAL_BYTES);
    while (size < needed && size < this.cap) size *= 2;
    size = Math.min(size, this.cap);
    const grown = Buffer.allocUnsafeSlow(size);
    if (this.buf) {
      // Grown only before the first wrap, so the contents are still in order from 0.
      this.buf.copy(grown, 0, 0, this.length);
    }
    this.buf = grown;
    this.start = 0;
    return grown;
  }
}
