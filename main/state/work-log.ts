// work_log.md (DESIGN.md §3): append-only entries `## YYYY-MM-DD HH:MM` + bullet lines. Mori appends
// an entry with ONE write on an O_APPEND descriptor, then fsync, so concurrent writers (the agent,
// `mori log`, the supervisor) never interleave. Readers read the tail only. Past its budget the log's
// older entries move to work_log.archive.md (work-log-compaction.ts; Mori's appends hold the shared
// side of work-log-lock.ts so none is lost to it). A log that is a symlink or a hard link is refused
// (UnsafeStateFile), never written through; so is one that is a FIFO, never opened blocking. An entry
// written into a log renamed over meanwhile is carried to the new one (work-log-carry.ts). Any Node process.
import { closeSync, fstatSync, fsyncSync, readSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { scanWorkLog } from './work-log-scan.js';
import { recordOwnWrite } from './own-writes.js';
import { assertStatePath, openRegularSync, openStateFile } from './state-file-guard.js';
import { compactWorkLog, pendingJournal, settleWorkLog, WORK_LOG_BUDGET_BYTES } from './work-log-compaction.js';
import { carryOver } from './work-log-carry.js';
import { openForAppend, shortAppendError, takeBackShortAppend } from './work-log-files.js';
import { beginAppend, beginAppendSync } from './work-log-lock.js';
import { WORK_LOG } from '../../common/state-files.js';

export { compactWorkLog, settleWorkLog, WORK_LOG_BUDGET_BYTES } from './work-log-compaction.js';

/** Tail reads start with this much (a few typical entries) and grow ×4 until they hold enough entries. */
const TAIL_CHUNK_BYTES = 8 * 1024;

export interface WorkLogEntry {
  /** The heading text, e.g. `2026-11-30 15:00`. */
  heading: string;
  /** Parsed time of the heading, or null when the heading is not a timestamp. */
  at: Date | null;
  /** The entry's body lines, bullet markers removed. */
  lines: string[];
}

/** `2026-11-30 15:00` in local time: the seed's heading format. */
export function entryHeading(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}`;
}

/** The exact bytes of one entry. Starts with a newline so it never joins a last line without one. */
export function formatEntry(at: Date, lines: readonly string[]): string {
  const body = lines.flatMap((l) => l.split(/\r\n|\r|\n/)).map((l) => `- ${l}`);
  return `\n## ${entryHeading(at)}\n${body.join('\n')}\n`;
}

/**
 * Appends one entry with a single O_APPEND write, then fsync, holding the shared side of the work
 * log's lock (work-log-lock.ts) so a compaction never runs under it; compacts the log when that takes
 * it past its budget (one compactor at a time: the others skip, their entry is in the log either way).
 */
export function appendEntry(stateDir: string, lines: readonly string[], at = new Date(), budget = WORK_LOG_BUDGET_BYTES, wait = true): void {
  const file = path.join(stateDir, WORK_LOG);
  // Before any marker or lock is made in it: the state dir must be a real directory of its project.
  assertStatePath(file, stateDir);
  // Without waiting, every wait below is skipped: a busy lock throws CompactionBusy, compaction is deferred.
  const waitMs = wait ? undefined : 0;
  // A compaction killed mid-way may have left the log with a second name: settle it first.
  if (pendingJournal(stateDir)) settleWorkLog(stateDir, waitMs);
  const release = beginAppendSync(stateDir, waitMs);
  let size: number;
  try {
    const fd = openForAppend(file);
    try {
      const bytes = Buffer.from(formatEntry(at, lines), 'utf8');
      const written = writeSync(fd, bytes);
      if (written !== bytes.length) throw shortAppendError(file, written, bytes.length, takeBackShortAppend(fd, file, bytes, written));
      size = afterWrite(() => {
        fsyncSync(fd);
        return fstatSync(fd).size;
      });
      // The log renamed over meanwhile (an editor's save): the entry goes to the log there is now.
      size = carryOver(fd, file, bytes) ?? size;
    } finally {
      closeSync(fd);
    }
  } finally {
    release();
  }
  recordOwnWrite(file);
  if (size > budget || pendingJournal(stateDir)) afterWrite(() => compactWorkLog(stateDir, budget, waitMs));
}

/**
 * appendEntry with the write and fsync off the event loop, for the supervisor, which appends for many
 * sessions at once (on suspend) and must not stall. Same single O_APPEND write; same compaction.
 */
export async function appendEntryAsync(stateDir: string, lines: readonly string[], at = new Date(), budget = WORK_LOG_BUDGET_BYTES): Promise<void> {
  const file = path.join(stateDir, WORK_LOG);
  assertStatePath(file, stateDir);
  // Never a sleep on the event loop: a busy settle or compaction is left to a later append.
  if (pendingJournal(stateDir)) settleWorkLog(stateDir, 0);
  const release = await beginAppend(stateDir);
  let size: number;
  try {
    const handle = await openStateFile(file, stateDir);
    try {
      const bytes = Buffer.from(formatEntry(at, lines), 'utf8');
      const { bytesWritten } = await handle.write(bytes);
      if (bytesWritten !== bytes.length) throw shortAppendError(file, bytesWritten, bytes.length, takeBackShortAppend(handle.fd, file, bytes, bytesWritten));
      size = await afterWriteAsync(async () => {
        await handle.sync();
        return (await handle.stat()).size;
      });
      size = carryOver(handle.fd, file, bytes) ?? size;
    } finally {
      await handle.close();
    }
  } finally {
    release();
  }
  recordOwnWrite(file);
  if (size > budget || pendingJournal(stateDir)) afterWrite(() => compactWorkLog(stateDir, budget, 0));
}

/** Errors appendEntry threw once its entry was in the log (its compaction's): the entry must not be appended again. */
const thrownAfterWrite = new WeakSet<object>();

function afterWrite<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (typeof err === 'object' && err !== null) thrownAfterWrite.add(err);
    throw err;
  }
}

async function afterWriteAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (typeof err === 'object' && err !== null) thrownAfterWrite.add(err);
    throw err;
  }
}

/** Whether an error of appendEntry or appendEntryAsync came after its entry was written (so it is in the log). */
export function entryWasWritten(err: unknown): boolean {
  return typeof err === 'object' && err !== null && thrownAfterWrite.has(err);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/;

export function parseEntryTime(heading: string): Date | null {
  const m = TIMESTAMP.exec(heading.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Every `##` section of the log is an entry; its lines are its body, bullets unwrapped. */
export function parseEntries(bytes: Buffer): WorkLogEntry[] {
  return scanWorkLog(bytes).entries.map((e) => ({
    heading: e.heading,
    at: parseEntryTime(e.heading),
    lines: e.body
      .map((l) => l.trim())
      .filter((l) => l.length > 0)
      .map((l) => l.replace(/^[-*+]\s+/, '')),
  }));
}

/**
 * The last `count` entries, reading only the end of the file (DESIGN.md §10: cold start must not be
 * O(total log)). Reads back in chunks until the chunk holds more than `count` entry headings.
 */
export function readTailEntries(stateDir: string, count: number): WorkLogEntry[] {
  const file = path.join(stateDir, WORK_LOG);
  let fd: number;
  try {
    fd = openRegularSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    let want = Math.min(size, TAIL_CHUNK_BYTES);
    for (;;) {
      const buf = Buffer.alloc(want);
      readSync(fd, buf, 0, want, size - want);
      const whole = want === size;
      // Start at the first entry heading in the chunk, so a cut line or entry is not misread.
      const text = buf.toString('utf8');
      const first = whole ? 0 : text.search(/(^|\n)## /);
      if (first >= 0) {
        const entries = parseEntries(Buffer.from(text.slice(first), 'utf8'));
        if (entries.length > count || whole) return entries.slice(-count);
      } else if (whole) {
        return [];
      }
      want = Math.min(size, want * 4);
    }
  } finally {
    closeSync(fd);
  }
}

export function workLogSize(stateDir: string): number {
  try {
    return statSync(path.join(stateDir, WORK_LOG)).size;
  } catch {
    return 0;
  }
}
