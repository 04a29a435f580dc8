// The state files and the work log as the control API serves them (DESIGN.md §12): a state file is
// read with a version (the hash of its bytes) and written only over the version read — else nothing
// is written and the current text and version come back; the work log is paged by stable entry
// indexes that count from the oldest entry, archive included. Paths stay inside the session's state
// dir, and a state file that is a symlink is refused (DESIGN.md §11). Runs in the daemon.
import { createHash } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EditableStateFile, LogEntry } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomic } from '../state/atomic-write.js';
import { appendEntryAsync, formatEntry, parseEntries, type WorkLogEntry } from '../state/work-log.js';
import { readRegularFileSync } from '../state/state-file-guard.js';
import { WORK_LOG, WORK_LOG_ARCHIVE } from '../../common/state-files.js';

export const versionOf = (bytes: Buffer | string): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The file's path when it is a regular file (not a symlink) directly in the state dir. */
function stateFilePath(stateDir: string, file: EditableStateFile): Result<string> {
  const p = path.join(stateDir, file);
  try {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return fail('unreadable', `${p} is a symlink; Mori refuses to follow it`);
    if (!st.isFile()) return fail('unreadable', `${p} is not a regular file`);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'not-found' : 'unreadable', `${p}: ${code === 'ENOENT' ? 'no such file' : String(code)}`);
  }
  return ok(p);
}

export function readStateFile(stateDir: string, file: EditableStateFile): Result<{ text: string; version: string }> {
  const p = stateFilePath(stateDir, file);
  if (!p.ok) return p;
  try {
    const bytes = readRegularFileSync(p.value, false);
    return ok({ text: bytes.toString('utf8'), version: versionOf(bytes) });
  } catch (err) {
    return fail('unreadable', `${p.value}: ${(err as Error).message}`);
  }
}

export type WriteOutcome = { outcome: 'written'; version: string } | { outcome: 'conflict'; text: string; version: string };

/**
 * Replaces the file atomically when it is still at `baseVersion`. The check and the rename are a few
 * milliseconds apart; an edit landing inside them is seen by the watcher as an external change.
 */
export async function writeStateFile(stateDir: string, file: EditableStateFile, text: string, baseVersion: string): Promise<Result<WriteOutcome>> {
  const current = readStateFile(stateDir, file);
  if (!current.ok) return current;
  if (current.value.version !== baseVersion) return ok({ outcome: 'conflict', text: current.value.text, version: current.value.version });
  const p = path.join(stateDir, file);
  const mode = statSync(p).mode & 0o777;
  await writeAtomic(p, text, mode);
  return ok({ outcome: 'written', version: versionOf(Buffer.from(text, 'utf8')) });
}

/** Parsed archive entries by file, reused while the archive's size and mtime stay the same. */
const archiveCache = new Map<string, { size: number; mtimeMs: number; entries: WorkLogEntry[] }>();

function archiveEntries(stateDir: string): WorkLogEntry[] {
  const file = path.join(stateDir, WORK_LOG_ARCHIVE);
  let st;
  try {
    st = statSync(file);
  } catch {
    archiveCache.delete(file);
    return [];
  }
  const hit = archiveCache.get(file);
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.entries;
  const entries = parseEntries(readRegularFileSync(file, false));
  archiveCache.set(file, { size: st.size, mtimeMs: st.mtimeMs, entries });
  return entries;
}

function logEntries(stateDir: string): WorkLogEntry[] {
  try {
    return parseEntries(readRegularFileSync(path.join(stateDir, WORK_LOG), false));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

const toEntry = (e: WorkLogEntry, index: number, archived: boolean): LogEntry => ({
  index,
  heading: e.heading,
  at: e.at ? e.at.toISOString() : null,
  lines: e.lines,
  archived,
});

/** The `limit` entries before entry `before` (or the newest), oldest first; `more`: older ones exist. */
export function tailLog(stateDir: string, before: number | undefined, limit: number): { entries: LogEntry[]; more: boolean; total: number } {
  const archived = archiveEntries(stateDir);
  const live = logEntries(stateDir);
  const total = archived.length + live.length;
  const end = Math.min(before ?? total, total);
  const start = Math.max(0, end - limit);
  const entries: LogEntry[] = [];
  for (let i = start; i < end; i++) {
    entries.push(i < archived.length ? toEntry(archived[i] as WorkLogEntry, i, true) : toEntry(live[i - archived.length] as WorkLogEntry, i, false));
  }
  return { entries, more: start > 0, total };
}

/** Appends one entry (one line per line of `text`) and returns it as written, with its index. */
export async function appendLog(stateDir: string, text: string, at = new Date()): Promise<LogEntry> {
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) lines.push(text.trim());
  await appendEntryAsync(stateDir, lines, at);
  // Found again from the end: another writer may have appended meanwhile.
  const page = tailLog(stateDir, undefined, 20);
  const wanted = parseEntries(Buffer.from(formatEntry(at, lines), 'utf8'))[0]?.lines ?? [];
  for (let i = page.entries.length - 1; i >= 0; i--) {
    const e = page.entries[i] as LogEntry;
    if (e.lines.length === wanted.length && e.lines.every((l, j) => l === wanted[j])) return e;
  }
  const last = page.entries[page.entries.length - 1];
  if (!last) throw new Error(`${path.join(stateDir, WORK_LOG)}: the entry just appended is not there`);
  return last;
}
