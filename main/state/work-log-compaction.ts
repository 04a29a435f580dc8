// Compaction of work_log.md (DESIGN.md §3): past its budget, the log's older entries move to
// work_log.archive.md, so every entry is in exactly one of the two files, whoever appends meanwhile.
//   - Mori's appenders are held off for the duration (the exclusive side of work-log-lock.ts), so
//     none of their entries can land in the old file after it was last read.
//   - The agent's own appends (`>>`: open, write, close) are not held off: the log is re-read just
//     before its atomic replace, and what reached the old file between that read and the rename is
//     copied over. An append whose open came before the rename and whose write came after lands in
//     the replaced file, so that file keeps a name, `work_log.replaced.<bytes accounted for>.md`, and
//     the next compaction (or settleWorkLog) moves anything past that offset into the log; it is
//     deleted once REPLACED_GRACE_MS have passed without a write.
//   - A journal (work_log.compacting.json: the archive's size before, the log's inode) is written
//     before the archive grows, and removed when the log is replaced. A compaction that was killed
//     or found the log rewritten is undone by truncating the archive back, so no entry is ever in
//     both files.
//   - Mori's own entries (SESSION RESUMED, SESSION INTERRUPTED…: what interrupted the session, how it
//     resumed, what was refused) stay in the log, the newest first up to a share of the budget: the
//     resume prompt's log tail and the person reading the log need them more than the agent's old
//     steps. Any Node process.
import { closeSync, fstatSync, ftruncateSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, readSync, renameSync, constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fsyncDir, unlinkQuietly, writeAtomicSync } from './atomic-write.js';
import { assertPlainOpenedFile, assertPlainStateFile, readRegularFileSync, refusalFor, UnsafeStateFile } from './state-file-guard.js';
import { appendDurably, openForRead, readFd, readWhole } from './work-log-files.js';
import { withExclusiveSync } from './work-log-lock.js';
import { scanWorkLog, type ScannedLog } from './work-log-scan.js';
import { WORK_LOG, WORK_LOG_ARCHIVE } from '../../common/state-files.js';

/** Default budget: 256 KiB is a few thousand entries, far more than a resume prompt reads. */
export const WORK_LOG_BUDGET_BYTES = 256 * 1024;
/** After compaction the log keeps about this share of its budget, so it is not compacted on every append. */
const KEEP_FRACTION = 0.5;
/**
 * Mori's entries kept in the log take at most this share of the budget, so a log of nothing but them
 * (or an agent writing entries that look like Mori's) still shrinks to under the budget: 0.5 + 0.25.
 */
const MORI_KEEP_FRACTION = 0.25;
/**
 * A Mori entry: one line `WORDS IN CAPITALS - …`. CHECKPOINT entries are left to move: they come every
 * few minutes of work and `mori checkpoints` lists them from their refs anyway.
 */
const MORI_ENTRY = /^ {0,3}[-*] (?!CHECKPOINT - )[A-Z][A-Z]+(?: [A-Z]+)* - /;
export const COMPACTION_JOURNAL = 'work_log.compacting.json';
const REPLACED_PREFIX = 'work_log.replaced.';
const REPLACED_NAME = /^work_log\.replaced\.(\d+)\.md$/;
/**
 * A replaced log is kept this long after its last write. Only a writer that opened it before the
 * replace can still write to it, and a `>>` writes right after its open: a minute is ample.
 */
const REPLACED_GRACE_MS = 60_000;

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
export function compactWorkLog(stateDir: string, budget = WORK_LOG_BUDGET_BYTES, waitMs?: number): number {
  // Symlinks only: the log has a second name for a moment during a compaction (see below).
  assertPlainStateFile(path.join(stateDir, WORK_LOG));
  assertPlainStateFile(path.join(stateDir, WORK_LOG_ARCHIVE), true);
  // Checked before locking too: holding the lock for nothing would only keep appenders waiting.
  if (sizeOf(path.join(stateDir, WORK_LOG)) <= budget && !pendingJournal(stateDir)) return 0;
  return withExclusiveSync(stateDir, () => compactLocked(stateDir, budget), waitMs) ?? 0;
}

/**
 * Finishes (undoes) a compaction that was interrupted, and moves late appends to a replaced log into
 * the log. True when nothing was left to settle or it was settled; false when busy (try later).
 */
export function settleWorkLog(stateDir: string, waitMs?: number): boolean {
  if (!pendingJournal(stateDir) && replacedLogs(stateDir).length === 0) return true;
  return (
    withExclusiveSync(stateDir, () => {
      recover(stateDir);
      sweepReplaced(stateDir);
    }, waitMs) !== null
  );
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
  sweepReplaced(stateDir);
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
  const { moved, kept } = splitMori(doc, firstEntry, cut, budget * MORI_KEEP_FRACTION);
  if (moved.length === 0) return 0; // nothing but Mori's entries before the cut: they stay
  const prefix = Buffer.concat([header, ...doc.lines.slice(firstEntry, cut)]);

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
    // The old file keeps a name across the replace, for appends that opened it and write later.
    const hold = path.join(stateDir, `${REPLACED_PREFIX}pending.${randomBytes(6).toString('hex')}`);
    linkSync(file, hold);
    writeAtomicSync(file, Buffer.concat([header, kept, now.subarray(prefix.length)]));
    // Appends that reached the old file after our read, before the rename, are copied over.
    const late = readFd(oldFd).subarray(now.length);
    if (late.length > 0) appendDurably(file, late);
    renameSync(hold, path.join(stateDir, `${REPLACED_PREFIX}${now.length + late.length}.md`));
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
    journal = JSON.parse(readRegularFileSync(journalFile, false).toString('utf8')) as Journal;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    // Not a file (a FIFO, a symlink): the agent's, not Mori's journal; refused, left as it is.
    if (err instanceof UnsafeStateFile) throw err;
    // Torn before its atomic rename cannot happen; anything else unreadable says nothing: drop it.
    finishJournal(stateDir);
    return;
  }
  const logIno = lstatSync(path.join(stateDir, WORK_LOG), { throwIfNoEntry: false })?.ino;
  if (logIno === journal.logIno) truncateTo(path.join(stateDir, WORK_LOG_ARCHIVE), journal.archiveSize);
  // A second name taken just before a replace that did not finish: the log has one name again.
  for (const name of readdirSync(stateDir)) if (name.startsWith(`${REPLACED_PREFIX}pending.`)) unlinkQuietly(path.join(stateDir, name));
  finishJournal(stateDir);
}

function replacedLogs(stateDir: string): { file: string; accounted: number }[] {
  const out: { file: string; accounted: number }[] = [];
  for (const name of readdirSync(stateDir)) {
    const m = REPLACED_NAME.exec(name);
    if (m) out.push({ file: path.join(stateDir, name), accounted: Number(m[1]) });
  }
  return out;
}

/** Moves what was appended to replaced logs past their accounted offset into the log; drops old ones. */
function sweepReplaced(stateDir: string): void {
  for (const { file, accounted } of replacedLogs(stateDir)) {
    const fd = openForRead(file);
    let size: number;
    let idleMs: number;
    try {
      const st = fstatSync(fd);
      size = st.size;
      idleMs = Date.now() - st.mtimeMs;
      if (size > accounted) {
        const late = Buffer.alloc(size - accounted);
        const n = readSync(fd, late, 0, late.length, accounted);
        appendDurably(path.join(stateDir, WORK_LOG), late.subarray(0, n));
      }
    } finally {
      closeSync(fd);
    }
    if (idleMs > REPLACED_GRACE_MS) unlinkQuietly(file);
    else if (size > accounted) renameSync(file, path.join(stateDir, `${REPLACED_PREFIX}${size}.md`));
  }
}

function finishJournal(stateDir: string): void {
  unlinkQuietly(path.join(stateDir, COMPACTION_JOURNAL));
  fsyncDir(stateDir);
}

function truncateTo(file: string, size: number): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw refusalFor(file, err);
  }
  try {
    assertPlainOpenedFile(file, fd, true);
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

/**
 * The lines from `from` to `cut` split into those that move to the archive and Mori's own entries that
 * stay, the newest of them first up to `keepBytes`; each keeps its order.
 */
function splitMori(doc: ScannedLog, from: number, cut: number, keepBytes: number): { moved: Buffer; kept: Buffer } {
  const spans: { lines: Buffer[]; mori: boolean }[] = [];
  const entries = doc.entries.filter((e) => e.headingLine >= from && e.headingLine < cut);
  entries.forEach((entry, i) => {
    const end = entries[i + 1]?.headingLine ?? cut;
    const body = entry.body.filter((l) => l.trim() !== '');
    spans.push({ lines: doc.lines.slice(entry.headingLine, end), mori: body.length === 1 && MORI_ENTRY.test(body[0]!) });
  });
  let room = keepBytes;
  for (let i = spans.length - 1; i >= 0; i--) {
    const span = spans[i]!;
    if (!span.mori) continue;
    const size = span.lines.reduce((n, l) => n + l.length, 0);
    if (size > room) span.mori = false;
    else room -= size;
  }
  return {
    moved: Buffer.concat(spans.filter((x) => !x.mori).flatMap((x) => x.lines)),
    kept: Buffer.concat(spans.filter((x) => x.mori).flatMap((x) => x.lines)),
  };
}
