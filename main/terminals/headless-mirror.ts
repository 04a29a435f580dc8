// The headless mirror of one terminal (DESIGN.md §6): an @xterm/headless screen with a small
// scrollback, giving the screen text for activity detection and the serialized snapshot a new view
// starts from. It is kept off the hot path: output is queued and parsed when the stream goes
// quiet (or every quarter second during a long stream, every second during a flood), and during a
// flood only the tail is kept, since a screen that scrolled by faster than anyone can read is rebuilt from its last lines.
// Runs in the supervisor's process.
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import { background } from '../background.js';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;

/**
 * Mirror scrollback: a few screens for a new view to scroll; older output is in the transcript (the
 * window's History reads it). Each line held costs ~1.5 KB per session whether anyone looks or not:
 * 1,000 lines made an idle session cost 3.2 MB and a daemon with 100 of them 411 MB; 200 lines, 1.3 MB
 * and 217 MB (scale-100).
 */
export const MIRROR_SCROLLBACK_LINES = 200;
/** Parse once output has paused this long: invisible next to typing, merges bursts into one parse. */
export const MIRROR_QUIET_MS = 20;
/** During a steady stream, parse at least this often, so the screen is never more than this stale. */
export const MIRROR_MAX_WAIT_MS = 250;
/**
 * A backlog beyond this is a flood (a headless parse runs at ~50 MB/s, as fast as the pty itself):
 * drop all but the tail. 1 M chars is ~4 s of a fast agent, far more than any screen redraw.
 */
export const MIRROR_BACKLOG_MAX_CHARS = 1_000_000;
/**
 * What a flood keeps at most: well over scrollback + screen of typical lines. It keeps less when the
 * last lines already fill the scrollback and the screen (MIRROR_SCROLLBACK_LINES + rows of them, each
 * line at least one row): parsing is most of what a mirror costs during a flood (a parse of 256 K
 * chars is ~100 ms of still-cold parser code, a fifth of the CPU of a 60 MB flood), and lines that
 * would scroll out of the scrollback at once change nothing anyone can see. Output with few line
 * ends (a full-screen program redrawing in place) keeps this much.
 */
export const MIRROR_TAIL_KEEP_CHARS = 256_000;
/**
 * Output arriving faster than MIRROR_TAIL_KEEP_CHARS per this period is a flood too: parses come
 * at most this often, and each parses only the tail. Nobody reads a screen scrolling that fast and
 * activity detection sees output either way; a read (screenText, snapshot) still parses at once.
 * (Measured as a rate since the last parse, not by pauses in the stream: a busy event loop makes
 * pauses of its own, and parsing on each of them would put the mirror back in the hot path.)
 */
export const MIRROR_FLOOD_WAIT_MS = 1000;
/**
 * Output goes to the parser in pieces no longer than this. xterm decodes each write into a buffer
 * of its own that it keeps for good, grown to the write's length up to 128 K code units (512 KB): one
 * large write after a pause left every idle session holding half a megabyte it never used again.
 * 4,096 is that buffer's initial size, so it stays at 16 KB; the pieces are queued in one go and
 * parsed in the same pass, so they cost no more than one write.
 */
export const MIRROR_WRITE_PIECE_CHARS = 4096;

type Op =
  | { kind: 'data'; data: string }
  | { kind: 'resize'; cols: number; rows: number }
  | { kind: 'reset' }
  | { kind: 'read'; read: () => void };

export class HeadlessMirror {
  private readonly term: InstanceType<typeof Terminal>;
  private readonly serializer: InstanceType<typeof SerializeAddon>;
  private queue: Op[] = [];
  private queuedChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private firstQueuedAt = 0;
  private lastPushAt = 0;
  private lastDrainAt = Date.now();
  /** Output pushed since the last parse began, dropped or not: the flood detector's rate. */
  private pushedSinceDrain = 0;
  private draining = false;
  private disposed = false;
  /** How many times a flood made the mirror drop output (for diagnostics and tests). */
  floods = 0;

  constructor(
    cols: number,
    rows: number,
    private readonly scrollback = MIRROR_SCROLLBACK_LINES,
  ) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.serializer = new SerializeAddon();
    this.term.loadAddon(this.serializer);
  }

  push(data: string): void {
    if (this.disposed || data.length === 0) return;
    const now = Date.now();
    if (this.queuedChars === 0) this.firstQueuedAt = now;
    this.lastPushAt = now;
    this.pushedSinceDrain += data.length;
    this.queue.push({ kind: 'data', data });
    this.queuedChars += data.length;
    if (this.queuedChars > MIRROR_BACKLOG_MAX_CHARS) this.keepTail();
    this.schedule(MIRROR_QUIET_MS);
  }

  resize(cols: number, rows: number): void {
    this.enqueue({ kind: 'resize', cols, rows });
    this.schedule(0);
  }

  /** Clears the screen and scrollback, e.g. before loading history captured from tmux. */
  reset(): void {
    this.enqueue({ kind: 'reset' });
  }

  /** The visible screen as plain text, one line per row, after all output pushed so far. */
  screenText(): Promise<string> {
    return this.read(() => {
      const buf = this.term.buffer.active;
      const lines: string[] = [];
      for (let y = 0; y < this.term.rows; y++) lines.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
      return lines.join('\n');
    });
  }

  /** The serialized screen with scrollback, exactly as of all output pushed before this call. */
  snapshot(): Promise<string> {
    return this.read(() => this.serializer.serialize({ scrollback: MIRROR_SCROLLBACK_LINES }));
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const op of this.queue) if (op.kind === 'read') op.read();
    this.queue = [];
    this.term.dispose();
  }

  private read<T>(fn: () => T): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('the terminal mirror is closed'));
    return new Promise<T>((resolve, reject) => {
      this.enqueue({
        kind: 'read',
        read: () => {
          if (this.disposed) return reject(new Error('the terminal mirror is closed'));
          try {
            resolve(fn());
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        },
      });
      this.schedule(0);
    });
  }

  private enqueue(op: Op): void {
    if (this.disposed) return;
    this.queue.push(op);
  }

  /** Drops queued output but its last lines (scrollback + screen, at most MIRROR_TAIL_KEEP_CHARS; from a line start), resetting first. */
  private keepTail(): void {
    this.floods += 1;
    // One more line end than the lines wanted: the first kept piece is cut after its first line end.
    const lineEnds = this.scrollback + this.term.rows + 1;
    let kept = 0;
    let ends = 0;
    let cut = this.queue.length;
    while (cut > 0 && kept < MIRROR_TAIL_KEEP_CHARS && ends < lineEnds) {
      cut -= 1;
      const op = this.queue[cut];
      if (op?.kind !== 'data') continue;
      kept += op.data.length;
      for (let at = op.data.indexOf('\n'); at >= 0 && ends < lineEnds; at = op.data.indexOf('\n', at + 1)) ends += 1;
    }
    const head = this.queue.slice(0, cut).filter((op) => op.kind !== 'data');
    const tail = this.queue.slice(cut);
    const first = tail[0];
    if (first?.kind === 'data') {
      const nl = first.data.indexOf('\n');
      tail[0] = { kind: 'data', data: nl < 0 ? '' : first.data.slice(nl + 1) };
    }
    this.queue = [...head, { kind: 'reset' }, ...tail];
    this.queuedChars = tail.reduce((n, op) => n + (op.kind === 'data' ? op.data.length : 0), 0);
  }

  private schedule(delayMs: number): void {
    if (this.disposed || this.draining) return;
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delayMs);
  }

  private tick(): void {
    this.timer = null;
    const now = Date.now();
    const waitingForRead = this.queue.some((op) => op.kind !== 'data');
    if (!waitingForRead) {
      const sinceDrain = Math.max(1, now - this.lastDrainAt);
      const flooding = this.pushedSinceDrain * MIRROR_FLOOD_WAIT_MS > MIRROR_TAIL_KEEP_CHARS * sinceDrain;
      if (flooding && sinceDrain < MIRROR_FLOOD_WAIT_MS) {
        this.timer = setTimeout(() => this.tick(), MIRROR_FLOOD_WAIT_MS - sinceDrain);
        return;
      }
      if (!flooding && now - this.lastPushAt < MIRROR_QUIET_MS && now - this.firstQueuedAt < MIRROR_MAX_WAIT_MS) {
        this.timer = setTimeout(() => this.tick(), MIRROR_QUIET_MS);
        return;
      }
    }
    background(this.drain(), 'terminal mirror update');
  }

  /** Parses `data` in pieces (MIRROR_WRITE_PIECE_CHARS); resolves once the last one is parsed. */
  private write(data: string): Promise<void> {
    return new Promise<void>((resolve) => {
      // A piece may end inside a surrogate pair or an escape sequence: the parser keeps its state across writes.
      for (let at = 0; at < data.length; at += MIRROR_WRITE_PIECE_CHARS) {
        const end = at + MIRROR_WRITE_PIECE_CHARS;
        if (end >= data.length) this.term.write(data.slice(at), resolve);
        else this.term.write(data.slice(at, end));
      }
    });
  }

  /** Applies what is queued now; output arriving meanwhile waits for the next tick. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    if (this.queuedChars > MIRROR_TAIL_KEEP_CHARS) this.keepTail();
    this.lastDrainAt = Date.now();
    this.pushedSinceDrain = 0;
    const batch = this.queue;
    this.queue = [];
    this.queuedChars = 0;
    try {
      for (let i = 0; i < batch.length && !this.disposed; i++) {
        const op = batch[i] as Op;
        if (op.kind === 'data') {
          // Merge consecutive output into one write: one parse call instead of hundreds.
          const parts = [op.data];
          while (batch[i + 1]?.kind === 'data') parts.push((batch[++i] as { data: string }).data);
          await this.write(parts.join(''));
        } else if (op.kind === 'resize') {
          this.term.resize(op.cols, op.rows);
        } else if (op.kind === 'reset') {
          this.term.reset();
          this.term.clear();
        } else {
          op.read();
        }
      }
    } finally {
      this.draining = false;
      this.firstQueuedAt = Date.now();
      if (this.queue.length > 0) this.schedule(this.queue.some((op) => op.kind === 'read') ? 0 : MIRROR_QUIET_MS);
    }
  }
}
