// Reads one launch's hook spool dir (DESIGN.md §4 "Hooks"): the report script renames each hook call
// into `<pid>.<event>`; this watches the dir (fs.watch, plus a read at start for calls made while
// no supervisor ran), takes each file oldest first and deletes it. Every file is hostile: it is read
// through main/os/agent-file.ts (O_NOFOLLOW | O_NONBLOCK, used only when the opened handle is a regular file), at most
// SPOOL_MAX_BYTES of it is read (a bigger call keeps only its event name), at most SPOOL_MAX_PER_PASS
// files are taken before the loop gets a turn, and refusals are said once per pass, counted. All I/O
// is async. Runs in the supervisor's process.
import { watch, type FSWatcher } from 'node:fs';
import { promises as fsp, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { EVENT_NAME_PATTERN, SPOOL_TEMP_PREFIX } from '../../agents/hooks/report-script.js';
import { background } from '../../background.js';
import { isAgentFileError, withAgentFile } from '../../os/agent-file.js';

/** Hook payloads are a few KiB (claude's largest carry a tool's input); a bigger one is not read. */
export const SPOOL_MAX_BYTES = 64 * 1024;
/** Files taken per pass before yielding to the event loop: a flood cannot hold the daemon. */
export const SPOOL_MAX_PER_PASS = 64;
/** `<the calling process's pid>.<event>`: what the script names a finished call. */
const CALL_NAME = /^([A-Za-z0-9]{1,32})\.([^.]+)$/;

export interface HookCall {
  event: string;
  /** When the hook wrote it: its file's mtime, epoch ms. */
  at: number;
  /** The parsed JSON, or null when it was too big, not JSON, or empty. */
  payload: unknown;
}

export interface HookSpoolOptions {
  dir: string;
  onCall(call: HookCall): void;
  /** What was refused in one pass (the first reason, and how many), for the work log. */
  onProblem(message: string): void;
  maxBytes?: number;
  maxPerPass?: number;
}

type Taken = { call: HookCall } | { refused: string };

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class HookSpool {
  private watcher: FSWatcher | null = null;
  private draining = false;
  private again = false;
  private closed = false;
  /** Names that could not be removed (a directory): skipped from then on. */
  private readonly stuck = new Set<string>();

  constructor(private readonly o: HookSpoolOptions) {}

  /** Starts watching and reads what is already there. */
  start(): void {
    try {
      this.watcher = watch(this.o.dir, { persistent: false }, () => this.poke());
      this.watcher.on('error', () => this.close()); // the dir went away: its run is over
    } catch {
      return; // no spool dir: this run has no hooks
    }
    this.poke();
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = null;
  }

  /** Something changed in the dir: drain it (again, if a drain is under way). */
  poke(): void {
    if (this.closed) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    background(
      this.drain().finally(() => (this.draining = false)),
      `reading the hook spool ${this.o.dir}`,
    );
  }

  /** Resolves once no drain is under way (tests). */
  async idle(): Promise<void> {
    while (this.draining) await yieldToLoop();
  }

  private async drain(): Promise<void> {
    const max = this.o.maxPerPass ?? SPOOL_MAX_PER_PASS;
    do {
      this.again = false;
      const names = await fsp.readdir(this.o.dir).catch(() => null);
      if (names === null || this.closed) return;
      const ready = names.filter((n) => !n.startsWith(SPOOL_TEMP_PREFIX) && !this.stuck.has(n));
      // One listing, taken a pass at a time with a turn of the loop between passes.
      for (let at = 0; at < ready.length && !this.closed; at += max) {
        if (at > 0) await yieldToLoop();
        await this.pass(ready.slice(at, at + max));
      }
    } while (this.again && !this.closed);
  }

  /** Takes `batch` oldest first (mtime, then name), reporting calls in that order. */
  private async pass(batch: string[]): Promise<void> {
    const stats = await Promise.all(batch.map(async (name) => ({ name, st: await fsp.lstat(path.join(this.o.dir, name), { bigint: true }).catch(() => null) })));
    stats.sort((a, b) => cmp(a.st, b.st) || (a.name < b.name ? -1 : 1));
    let refused = 0;
    let first = '';
    // Read side by side (each is a few async steps), then reported in order.
    const taken = await Promise.all(stats.map(({ name, st }) => (st === null ? null : this.take(name))));
    for (const r of taken) {
      if (this.closed) return;
      if (r === null) continue; // taken meanwhile
      if ('call' in r) this.o.onCall(r.call);
      else if (refused++ === 0) first = r.refused;
    }
    if (refused > 0) this.o.onProblem(refused === 1 ? first : `${first} (and ${refused - 1} more refused)`);
  }

  /** Reads and removes one entry; the call, or why it was refused. */
  private async take(name: string): Promise<Taken> {
    const file = path.join(this.o.dir, name);
    const m = CALL_NAME.exec(name);
    const event = m?.[2] ?? '';
    let result: Taken;
    if (!EVENT_NAME_PATTERN.test(event)) result = { refused: `${file}: not a hook call's name; removed` };
    else result = await this.read(file, event);
    await fsp.unlink(file).catch(() => this.stuck.add(name));
    return result;
  }

  private async read(file: string, event: string): Promise<Taken> {
    const limit = this.o.maxBytes ?? SPOOL_MAX_BYTES;
    const read = await withAgentFile(file, async (f): Promise<Taken> => {
      if (f.info.size > limit) return { call: { event, at: f.info.mtimeMs, payload: null } };
      // One byte past the limit: a call that grew while read keeps only its event too.
      const bytes = await f.read(0, limit + 1);
      const payload = bytes.length > limit ? null : parse(bytes.toString('utf8'));
      return { call: { event, at: f.info.mtimeMs, payload } };
    });
    return isAgentFileError(read) ? { refused: `${read.message}; removed` } : read;
  }
}

function cmp(a: BigIntStats | null, b: BigIntStats | null): number {
  const x = a?.mtimeNs ?? 0n;
  const y = b?.mtimeNs ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}

function parse(text: string): unknown {
  try {
    return text.trim() === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null; // not JSON: the event alone is the report
  }
}
