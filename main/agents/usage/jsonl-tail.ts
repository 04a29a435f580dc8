// Incremental reading of an agent's append-only JSONL record (DESIGN.md §5 "Usage"): each read takes
// only what was appended since the last one, hands over complete lines (only those holding a needle), and leaves a partial last
// line for next time; a file that shrank or was replaced (another inode) is read again from its start.
// Every byte comes through main/os/agent-file.ts, a bounded chunk at a time. Runs in the daemon's
// process (the supervisor holds one tail per session's record, so offsets persist between listings).
import { withAgentFile, type AgentFileError, type OpenedAgentFile } from '../../os/agent-file.js';

/**
 * Bytes per read: a large record is never in memory whole, and with a hundred records read at once
 * (a listing after the daemon starts) about 100 MiB are in flight; 4 MiB doubled the first listing's time.
 */
const CHUNK_BYTES = 1024 * 1024;
/**
 * A line longer than this is skipped (its bytes dropped up to the next newline): far above any usage
 * line the CLIs write (a Claude Code reply holding a large tool call is a few MiB), while a record
 * without newlines cannot grow the carried text without bound.
 */
const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** Bytes read per call at most; the rest is read on the next call (`caughtUp` false meanwhile). */
export const DEFAULT_READ_BUDGET = 1024 * 1024 * 1024;

export interface TailRead {
  /** Complete lines appended since the last read, in order, without their newlines. */
  lines: string[];
  /** The file was replaced or shrank since the last read: these lines start from its beginning. */
  restarted: boolean;
  /** Everything up to the file's size at this read is consumed (but a partial last line). */
  caughtUp: boolean;
}

export class JsonlTail {
  /** The byte after the last newline consumed. */
  private offset = 0;
  private identity: string | null = null;
  /** Inside a line over MAX_LINE_BYTES: bytes are dropped until its newline. */
  private skipping = false;

  private readonly needles: Buffer[];

  /** `needles`: only lines holding one of these are handed over (the rest are never decoded); none: every line. */
  constructor(
    readonly file: string,
    needles: readonly string[] = [],
    private readonly budget = DEFAULT_READ_BUDGET,
  ) {
    this.needles = needles.map((n) => Buffer.from(n));
  }

  private wanted(line: Buffer): boolean {
    return line.length > 0 && (this.needles.length === 0 || this.needles.some((n) => line.includes(n)));
  }

  /** The lines appended since the last call, or why the file was not read (absent, a FIFO, a symlink…). */
  async read(): Promise<TailRead | AgentFileError> {
    return withAgentFile(this.file, (f) => this.readOpened(f));
  }

  private async readOpened(f: OpenedAgentFile): Promise<TailRead> {
    const identity = `${f.info.dev}:${f.info.ino}`;
    const restarted = this.identity !== null && (identity !== this.identity || f.info.size < this.offset);
    if (this.identity === null || restarted) {
      this.offset = 0;
      this.skipping = false;
    }
    this.identity = identity;
    const lines: string[] = [];
    const end = Math.min(f.info.size, this.offset + this.budget);
    let carry = Buffer.alloc(0);
    let pos = this.offset;
    while (pos < end) {
      const chunk = await f.read(pos, Math.min(CHUNK_BYTES, end - pos));
      if (chunk.length === 0) break;
      pos += chunk.length;
      let start = 0;
      let nl = chunk.indexOf(10);
      while (nl !== -1) {
        if (this.skipping) this.skipping = false;
        else {
          const line = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
          if (this.wanted(line)) lines.push(line.toString('utf8'));
        }
        carry = Buffer.alloc(0);
        this.offset = pos - chunk.length + nl + 1;
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      if (!this.skipping) carry = Buffer.concat([carry, chunk.subarray(start)]);
      if (carry.length > MAX_LINE_BYTES) {
        this.skipping = true;
        carry = Buffer.alloc(0);
        this.offset = pos;
      } else if (this.skipping) this.offset = pos;
    }
    return { lines, restarted, caughtUp: end === f.info.size };
  }
}
