// Compaction of work_log.md (DESIGN.md §3): past its budget, the log's older entries move to
// work_log.archive.md, so every entry is in exactly one of the two files, whoever appends meanwhile.
//   - Mori's appenders are held off for the duration (the exclusive side of work-log-lock.ts), so
//     none of their entries can land in the old file after it was last read.
//   - The agent's own appends (`>>`: open, write, close) are not held off: the log is re-read just
//     before its atomic replace, and what reached the old file between that read and the rename is
//     copied over. (An append whose open came before the rename and whose write came after that last
//     read would still land in the replaced file: a window of one `>>` between its open and write.)
//   - A journal (work_log.compacting.json: the archive's size before, the log's inode) is written
//     before the archive grows, and removed when the log is replaced. A compaction that was killed
//     or found the log rewritten is undone by truncating the archive back, so no entry is ever in
//     both files. Any Node process.
import { closeSync, fstatSync, ftruncateSync, fsyncSync, lstatSync, openSync, readFileSync, constants } from 'node:fs';
import path from 'node:path';
import { fsyncDir, unlinkQuietly, writeAtomicSync } from './atomic-write.js';
import { assertPlainStateFile } from './state-file-guard.js';
import { appendDurably, openForRead, readFd, readWhole, WORK_LOG, WORK_LOG_ARCHIVE } from './work-log-files.js';
import { withExclusiveSync } from './work-log-lock.js';
import { scanWorkLog, type ScannedLog } from './work-log-scan.js';

/** Default budget: 256 KiB is a few thousand entries, far more than a resume prompt reads. */
export const WORK_LOG_BUDGET_BYTES = 256 * 1024;
/** After compaction the log keeps about this share of its budget, so it is not compacted on every append. */
const KEEP_FRACTION = 0.5;
export const COMPACTION_JOURNAL = 'work_log.compacting.json';

interface Journal {
  /** The archive's size before this compaction appended to it. */
  archiveSize: number;
  /** The inode of the log being compacted: a different one means the replace happened. */
  logIno: number;
}

/**
 * Moves older entries to the archive when the log is over budget. Returns the number of bytes moved
 * (0 when under budget, or when appenders or another compaction kept it from running this time).
 */
export function compactWorkLog(stateDir: string, budget = WORK_LOG_BUDGET_BYTES): number {
  assertPlainStateFile(path.join(stateDir, WORK_LOG), true);
  assertPlainStateFile(path.join(stateDir, WORK_LOG_ARCHIVE), true);
  // Checked before locking too: holding the lock for nothing would only keep appenders waiting.
  if (sizeOf(path.join(stateDir, WORK_LOG)) <= budget && !pendingJournal(stateDir)) return 0;
  return withExclusiveSync(stateDir, () => compactLocked(stateDir, budget)) ?? 0;
}

/** Finishes (undoes) a compaction that was interrupted, if any. True when nothing is left to settle. */
export function settleWorkLog(stateDir: string): boolean {
  if (!pendingJournal(stateDir)) return true;
  return withExclusiveSync(stateDir, () => recover(stateDir)) !== null;
}

export function pendingJournal(stateDir: string): boolean {
  try {
    lstatSync(path.join(stateDir, COMPACTION_JOURNAL));
    return true;
  } catch {
    return false;
  }
}

function compactLocked(stateDir: string, budget: number): number {
  recover(stateDir);
  const file = path.join(stateDir, WORK_LOG);
  const archive = path.join(stateDir, WORK_LOG_ARCHIVE);
  const bytes = readWhole(file);
  if (bytes.length <= budget) return 0;
  const doc = scanWorkLog(bytes);
  // The title and any preamble before the first entry stay in the log; entries move.
  const firstEntry = doc.entries[0]?.headingLine ?? 0;
  const cut = cutLine(doc, budget * KEEP_FRACTION);
  if (cut <= firstEntry) return 0; // a single huge entry: nothing sensible to move
  const header = Buffer.concat(doc.lines.slice(0, firstEntry));
  const moved = Buffer.concat(doc.lines.slice(firstEntry, cut));
  const prefix = Buffer.concat([header, moved]);

  const oldFd = openForRead(file);
  try {
    const journal: Journal = { archiveSize: sizeOf(archive), logIno: fstatSync(oldFd).ino };
    writeAtomicSync(path.join(stateDir, COMPACTION_JOURNAL), JSON.stringify(journal) + '\n');
    appendDurably(archive, moved);
    // Re-read now: the agent may have appended (or rewritten the file) since.
    const now = readFd(oldFd);
    if (!now.subarray(0, prefix.length).equals(prefix)) {
      // Rewritten meanwhile (an editor?): leave the log alone and take the moved entries back out.
      recover(stateDir);
      return 0;
    }
    writeAtomicSync(file, Buffer.concat([header, now.subarray(prefix.length)]));
    // Appends that reached the old file after our read, before the rename, are copied over.
    const late = readFd(oldFd).subarray(now.length);
    if (late.length > 0) appendDurably(file, late);
  } finally {
    closeSync(oldFd);
  }
  finishJournal(stateDir);
  return moved.length;
}

/** Undoes the archive append of an unfinished compaction whose log was never replaced. */
function recover(stateDir: string): void {
  const journalFile = path.join(stateDir, COMPACTION_JOURNAL);
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    // Torn before its atomic rename cannot happen; anything else unreadable says nothing: drop it.
    finishJournal(stateDir);
    return;
  }
  const logIno = lstatSync(path.join(stateDir, WORK_LOG), { throwIfNoEntry: false })?.ino;
  if (logIno === journal.logIno) truncateTo(path.join(stateDir, WORK_LOG_ARCHIVE), journal.archiveSize);
  finishJournal(stateDir);
}

function finishJournal(stateDir: string): void {
  unlinkQuietly(path.join(stateDir, COMPACTION_JOURNAL));
  fsyncDir(stateDir);
}

function truncateTo(file: string, size: number): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if (fstatSync(fd).size > size) {
      ftruncateSync(fd, size);
      fsyncSync(fd);
    }
  } finally {
    closeSync(fd);
  }
}

function sizeOf(file: string): number {
  return lstatSync(file, { throwIfNoEntry: false })?.size ?? 0;
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
