// work_log.md (DESIGN.md §3): append-only entries `## YYYY-MM-DD HH:MM` + bullet lines. Mori appends
// an entry with ONE write on an O_APPEND descriptor, then fsync, so concurrent writers (the agent,
// `mori log`, the supervisor) never interleave. Readers read the tail only. Past its budget the log's
// older entries move to work_log.archive.md, archive written and synced first. A log or archive that
// is a symlink or a hard link is refused (UnsafeStateFile), never written through. Any Node process.
import { closeSync, fstatSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { scanWorkLog, type ScannedLog } from './work-log-scan.js';
import { writeAtomicSync } from './atomic-write.js';
import { tryLock } from './pid-lock.js';
import { recordOwnWrite } from './own-writes.js';
import { APPEND_FLAGS, assertPlainOpenedFile, assertPlainStateFile, READ_FLAGS, refusalFor } from './state-file-guard.js';

export const WORK_LOG = 'work_log.md';
export const WORK_LOG_ARCHIVE = 'work_log.archive.md';
/** Default budget: 256 KiB is a few thousand entries, far more than a resume prompt reads. */
export const WORK_LOG_BUDGET_BYTES = 256 * 1024;
/** After compaction the log keeps about this share of its budget, so it is not compacted on every append. */
const KEEP_FRACTION = 0.5;
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
 * Appends one entry with a single O_APPEND write, then fsync; compacts the log when that takes it
 * past its budget (one compactor at a time: the others skip, their entry is in the log either way).
 */
export function appendEntry(stateDir: string, lines: readonly string[], at = new Date(), budget = WORK_LOG_BUDGET_BYTES): void {
  const file = path.join(stateDir, WORK_LOG);
  const fd = openForAppend(file);
  let size: number;
  try {
    const bytes = Buffer.from(formatEntry(at, lines), 'utf8');
    const written = writeSync(fd, bytes);
    if (written !== bytes.length) throw new Error(`${file}: short write (${written} of ${bytes.length} bytes)`);
    fsyncSync(fd);
    size = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  recordOwnWrite(file);
  if (size > budget) compactIfFree(stateDir, budget);
}

/**
 * appendEntry with the write and fsync off the event loop, for the supervisor, which appends for many
 * sessions at once (on suspend) and must not stall. Same single O_APPEND write; same compaction.
 */
export async function appendEntryAsync(stateDir: string, lines: readonly string[], at = new Date(), budget = WORK_LOG_BUDGET_BYTES): Promise<void> {
  const file = path.join(stateDir, WORK_LOG);
  let handle: FileHandle;
  try {
    handle = await open(file, APPEND_FLAGS, 0o644);
  } catch (err) {
    throw refusalFor(file, err);
  }
  let size: number;
  try {
    assertPlainOpenedFile(file, handle.fd, true);
    const bytes = Buffer.from(formatEntry(at, lines), 'utf8');
    const { bytesWritten } = await handle.write(bytes);
    if (bytesWritten !== bytes.length) throw new Error(`${file}: short write (${bytesWritten} of ${bytes.length} bytes)`);
    await handle.sync();
    size = (await handle.stat()).size;
  } finally {
    await handle.close();
  }
  recordOwnWrite(file);
  if (size > budget) compactIfFree(stateDir, budget);
}

/** Compacts unless another process is at it (their compaction covers this entry too). */
function compactIfFree(stateDir: string, budget: number): void {
  const lock = tryLock(path.join(stateDir, 'work_log.compact.lock'), 'work log compaction');
  if (!lock.ok) return;
  try {
    compactWorkLog(stateDir, budget);
  } finally {
    lock.release();
  }
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
    fd = openSync(file, 'r');
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

/**
 * Moves older entries to work_log.archive.md when the log is over budget. The archive is appended and
 * synced first; then the log is re-read just before its atomic replace, and anything appended to the
 * old file between that read and the rename is copied over, so no entry is ever lost.
 * Returns the number of bytes moved to the archive (0 when under budget).
 */
export function compactWorkLog(stateDir: string, budget = WORK_LOG_BUDGET_BYTES): number {
  const file = path.join(stateDir, WORK_LOG);
  assertPlainStateFile(file, true);
  assertPlainStateFile(path.join(stateDir, WORK_LOG_ARCHIVE), true);
  if (workLogSize(stateDir) <= budget) return 0;
  const doc = scanWorkLog(readWhole(file));
  // The title and any preamble before the first entry stay in the log; entries move.
  const firstEntry = doc.entries[0]?.headingLine ?? 0;
  const cut = cutLine(doc, budget * KEEP_FRACTION);
  if (cut <= firstEntry) return 0; // a single huge entry: nothing sensible to move
  const header = Buffer.concat(doc.lines.slice(0, firstEntry));
  const moved = Buffer.concat(doc.lines.slice(firstEntry, cut));
  appendDurably(path.join(stateDir, WORK_LOG_ARCHIVE), moved);

  // Re-read now: the agent may have appended since. Keep everything after the moved entries.
  const oldFd = openForRead(file);
  try {
    const now = readFd(oldFd);
    const prefix = Buffer.concat([header, moved]);
    if (!now.subarray(0, prefix.length).equals(prefix)) {
      // The file was rewritten meanwhile (an editor?): leave it alone; the archive has a copy.
      return 0;
    }
    writeAtomicSync(file, Buffer.concat([header, now.subarray(prefix.length)]));
    // Appends that reached the old file after our read, before the rename, are copied over.
    const late = readFd(oldFd).subarray(now.length);
    if (late.length > 0) appendDurably(file, late);
  } finally {
    closeSync(oldFd);
  }
  return moved.length;
}

/** Line index at which to cut: the first entry heading after which the rest fits in `keepBytes`. */
function cutLine(doc: ScannedLog, keepBytes: number): number {
  let total = 0;
  const offsets: number[] = [];
  for (const line of doc.lines) {
    offsets.push(total);
    total += line.length;
  }
  for (const e of doc.entries) {
    if (e.headingLine === 0) continue;
    if (total - (offsets[e.headingLine] ?? 0) <= keepBytes) return e.headingLine;
  }
  // Even the last entry is bigger than the keep share: keep only the last entry.
  return doc.entries[doc.entries.length - 1]?.headingLine ?? 0;
}

/** Opens a log for one append: never through a symlink, never a file with other names. */
function openForAppend(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, APPEND_FLAGS, 0o644);
  } catch (err) {
    throw refusalFor(file, err);
  }
  try {
    assertPlainOpenedFile(file, fd, true);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

function openForRead(file: string): number {
  try {
    return openSync(file, READ_FLAGS);
  } catch (err) {
    throw refusalFor(file, err);
  }
}

function appendDurably(file: string, bytes: Buffer): void {
  const fd = openForAppend(file);
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readWhole(file: string): Buffer {
  const fd = openForRead(file);
  try {
    return readFd(fd);
  } finally {
    closeSync(fd);
  }
}

function readFd(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const n = readSync(fd, buf, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}
