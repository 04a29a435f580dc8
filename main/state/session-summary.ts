// A one-screen summary of a session for `mori ls` / `mori status` and, later, the tray: its
// session.json, the first task line, the last work-log entry (a tail read), and who supervises it.
// Reads only small files and file tails, so 50 sessions with huge logs load fast. Any Node process.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { TASK_LINE_MAX, type SessionRecord } from '../../common/session.js';
import { MarkdownDoc } from './markdown-doc.js';
import { isStale, readLockOwner, type LockOwner } from './pid-lock.js';
import { readSessionFile } from './session-file.js';
import { parseSessionState } from './session-state.js';
import { readTailEntries, type WorkLogEntry } from './work-log.js';
import { readRegularFileSync, stateFileDefect } from './state-file-guard.js';
import { ENVIRONMENT, SESSION_FILE, SESSION_STATE, WORK_LOG } from '../../common/state-files.js';

export const SESSION_LOCK = 'session.lock';

export interface StateDirSummary {
  stateDir: string;
  ok: boolean;
  /** Set when a state file cannot be read: names the file and what is wrong. */
  error?: string;
  session?: SessionRecord;
  task?: string | null;
  lastLog?: { heading: string; lines: string[] } | null;
  supervisedBy?: { pid: number; since: string } | null;
}

export function summarize(stateDir: string): StateDirSummary {
  return filesSummary(stateDir);
}

/** The files each summary reads: a change to any of them (a new inode, size, mtime or ctime) makes it read again. */
const SUMMARY_FILES = [SESSION_FILE, SESSION_STATE, ENVIRONMENT, WORK_LOG];
/** Per state dir: the files' identities when it was read, and what they said. */
const summaries = new Map<string, { key: string; summary: StateDirSummary }>();

/**
 * summarize, for a process that lists the same sessions again and again (the daemon answering `mori
 * ls`): what the files say is read again only when one of them changed, by its stat (an atomic
 * write is a new inode; an append, a new size). The session lock likewise, by its own stat; whether
 * its owner is alive is asked every time.
 */
export function summarizeCached(stateDir: string): StateDirSummary {
  const key = SUMMARY_FILES.map((f) => {
    const st = lstatSync(path.join(stateDir, f), { bigint: true, throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : '-';
  }).join('|');
  const cached = summaries.get(stateDir);
  if (cached?.key === key) return cached.summary.ok ? { ...cached.summary, supervisedBy: supervisorCached(stateDir) } : { ...cached.summary };
  const summary = filesSummary(stateDir, supervisorCached);
  summaries.set(stateDir, { key, summary });
  return summary;
}

/** Per state dir: the session lock's identity when it was read, and its owner then. */
const lockOwners = new Map<string, { key: string; owner: LockOwner | null }>();

/**
 * Who supervises the session, with the lock file read again only when it changed (taking, releasing
 * and taking over a lock each put a new file in place: a new inode). Whether its owner is still
 * alive is asked every time; for the daemon's own sessions that costs no system call (isStale).
 */
function supervisorCached(stateDir: string): { pid: number; since: string } | null {
  const file = path.join(stateDir, SESSION_LOCK);
  const st = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  let owner: LockOwner | null;
  if (!st) owner = null;
  else {
    const key = `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const seen = lockOwners.get(stateDir);
    if (seen?.key === key) owner = seen.owner;
    else {
      owner = readLockOwner(file);
      lockOwners.set(stateDir, { key, owner });
    }
  }
  return owner === null || isStale(owner) ? null : { pid: owner.pid, since: owner.acquiredAt };
}

/** Per state dir: session_state.md's identity when it was read, and its current task's first line then. */
const taskLines = new Map<string, { key: string; task: string | null }>();

/**
 * The current task's first line (what the window's list and header show), for the daemon listing its
 * sessions again and again: session_state.md is read again only when its stat changed. Null when
 * there is none, or the file cannot be read (`mori ls` says why).
 */
export function currentTaskCached(stateDir: string): string | null {
  let key = '-';
  try {
    const st = lstatSync(path.join(stateDir, SESSION_STATE), { bigint: true, throwIfNoEntry: false });
    if (st) key = `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null; // the state dir itself is gone or unreadable
  }
  const seen = taskLines.get(stateDir);
  if (seen?.key === key) return seen.task;
  let task: string | null;
  try {
    task = currentTask(stateDir);
  } catch {
    task = null;
  }
  if (task !== null && task.length > TASK_LINE_MAX) task = `${task.slice(0, TASK_LINE_MAX - 1)}…`;
  taskLines.set(stateDir, { key, task });
  return task;
}

/** Forgets the cached summaries of state dirs no longer listed (removed sessions). */
export function forgetSummariesExcept(stateDirs: ReadonlySet<string>): void {
  for (const dir of taskLines.keys()) if (!stateDirs.has(dir)) taskLines.delete(dir);
  for (const dir of summaries.keys()) if (!stateDirs.has(dir)) summaries.delete(dir);
  for (const dir of lockOwners.keys()) if (!stateDirs.has(dir)) lockOwners.delete(dir);
}

function filesSummary(stateDir: string, supervisedBy = supervisor): StateDirSummary {
  const file = readSessionFile(stateDir);
  if (!file.ok) return { stateDir, ok: false, error: file.message };
  const summary: StateDirSummary = { stateDir, ok: true, session: file.value, supervisedBy: supervisedBy(stateDir) };
  try {
    summary.task = currentTask(stateDir);
  } catch (err) {
    summary.task = null;
    summary.error = namingFile(path.join(stateDir, SESSION_STATE), err);
  }
  try {
    const last: WorkLogEntry | undefined = readTailEntries(stateDir, 1)[0];
    summary.lastLog = last ? { heading: last.heading, lines: last.lines } : null;
  } catch (err) {
    summary.lastLog = null;
    summary.error = namingFile(path.join(stateDir, WORK_LOG), err);
  }
  // A state file the agent replaced by a symlink (to one of the person's files) or a FIFO: reads
  // may go through it, every write refuses it, so the listing names it until a regular file is back.
  if (summary.error === undefined) {
    const defect = SUMMARY_FILES.map((f) => stateFileDefect(path.join(stateDir, f), false)).find((d) => d !== null);
    if (defect) summary.error = defect;
  }
  return summary;
}

function currentTask(stateDir: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(path.join(stateDir, SESSION_STATE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return parseSessionState(new MarkdownDoc(bytes)).task[0] ?? null;
}

function supervisor(stateDir: string): { pid: number; since: string } | null {
  const owner = readLockOwner(path.join(stateDir, SESSION_LOCK));
  if (owner === null || isStale(owner)) return null;
  return { pid: owner.pid, since: owner.acquiredAt };
}

/** The error's words naming its file once: the state file guard's own errors already begin with it. */
function namingFile(file: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.startsWith(`${file}: `) ? message : `${file}: ${message}`;
}
