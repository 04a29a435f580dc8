// Reads and writes session.json (DESIGN.md §3): zod-validated, schema-versioned, written atomically,
// with session.json.bak holding the last valid version. A corrupt file is reported with its path and
// left exactly as it is: Mori refuses to write over it, as over a session.json that is a symlink.
// Any Node process.
//
// The backup is a hard link to the version being replaced (already durable, so no copy and no
// fsync), and the new version goes through a synced temp file: one data fsync and one directory
// fsync per write. updateSessionFileAsync does the fsyncs off the event loop and the read-compare-
// rename in one synchronous step, so it never undoes a write made meanwhile by this process.
import { copyFileSync, linkSync, renameSync } from 'node:fs';
import path from 'node:path';
import { SESSION_SCHEMA_VERSION, SessionRecord, type SessionRecordInput } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { visibleText } from '../../common/visible-text.js';
import { fsyncDir, fsyncDirAsync, tempNameFor, unlinkQuietly, writeTemp, writeTempSync } from './atomic-write.js';
import { recordOwnWrite } from './own-writes.js';
import { assertPlainStateFile, readRegularFileSync, UnsafeStateFile } from './state-file-guard.js';
import { SESSION_FILE } from '../../common/state-files.js';

export const SESSION_BACKUP = 'session.json.bak';

/** A change to session.json: what it becomes from what it is now. */
export type SessionChange = (s: SessionRecord) => SessionRecordInput;
/**
 * Where a part that changes session.json (a checkpoint, a rollback's notice, a verification's
 * results) sends the change: the supervisor's SessionStore, or outside a supervisor the CLI's own
 * (cli/offline-session-write.ts). Answers with the file as written.
 */
export type SessionWrite = (stateDir: string, change: SessionChange) => Promise<Result<SessionRecord>>;

export function sessionFilePath(stateDir: string): string {
  return path.join(stateDir, SESSION_FILE);
}

/** Parses session.json bytes; the message names the file and what is wrong with it. */
export function parseSessionFile(file: string, text: string): Result<SessionRecord> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // The parser's message quotes the file's bytes (an agent's): a NUL or ESC in it would go on into
    // the work log and every listing, so they are said as escapes.
    return fail('unreadable', `${file}: not valid JSON (${visibleText((err as Error).message)})`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > SESSION_SCHEMA_VERSION) {
    return fail('unreadable', `${file}: written by a newer Mori (schemaVersion ${version}; this one reads ${SESSION_SCHEMA_VERSION})`);
  }
  const parsed = SessionRecord.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'top level';
    return fail('unreadable', `${file}: ${where}: ${issue?.message ?? 'does not match the session schema'}`);
  }
  return ok(parsed.data);
}

export function readSessionFile(stateDir: string): Result<SessionRecord> {
  const file = sessionFilePath(stateDir);
  let text: string;
  try {
    text = readText(file);
  } catch (err) {
    if (err instanceof UnsafeStateFile) return fail('unreadable', err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail('not-found', `${file}: no such file (not a Mori state dir?)`);
    return fail('unreadable', `${file}: cannot be read (${code ?? (err as Error).message})`);
  }
  const parsed = parseSessionFile(file, text);
  if (!parsed.ok && parsed.code === 'unreadable' && backupIsValid(stateDir)) {
    return fail('unreadable', `${parsed.message}; the file is left as it is, and the last valid version is in ${path.join(stateDir, SESSION_BACKUP)}`);
  }
  return parsed;
}

/** Attempts at an asynchronous update before it falls back to a synchronous one (writes raced it each time). */
const ASYNC_UPDATE_ATTEMPTS = 3;

/**
 * Validates and atomically writes session.json. The previous version, if valid, is kept as
 * session.json.bak first. Throws — and writes nothing — when the data is invalid or the file on disk
 * is corrupt (so a person can look at it before anything replaces it).
 */
export function writeSessionFile(stateDir: string, data: SessionRecordInput): SessionRecord {
  const valid = SessionRecord.parse(data);
  const current = currentForWrite(stateDir);
  const tmp = writeTempSync(sessionFilePath(stateDir), serialize(valid));
  try {
    install(stateDir, tmp, current.ok);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
  fsyncDir(stateDir);
  return valid;
}

/** Read → change → write, for one supervisor's updates to its own sessions. */
export function updateSessionFile(stateDir: string, change: SessionChange): Result<SessionRecord> {
  const current = readSessionFile(stateDir);
  if (!current.ok) return current;
  try {
    return ok(writeSessionFile(stateDir, change(current.value)));
  } catch (err) {
    return fail('unreadable', (err as Error).message);
  }
}

/**
 * updateSessionFile without blocking the event loop on fsync: the new version is written and synced
 * to a temp file asynchronously, then — in one synchronous step — the file is re-read and, if nothing
 * changed it meanwhile, the temp file renamed over it. If something did, `change` is applied again to
 * the newer version, so a write this process made while the fsync ran is never undone.
 */
export async function updateSessionFileAsync(stateDir: string, change: SessionChange): Promise<Result<SessionRecord>> {
  const file = sessionFilePath(stateDir);
  for (let attempt = 0; attempt < ASYNC_UPDATE_ATTEMPTS; attempt++) {
    try {
      assertPlainStateFile(file);
    } catch (err) {
      return fail('unreadable', (err as Error).message);
    }
    const base = readSessionText(stateDir);
    if (!base.ok) return base;
    let next: SessionRecord;
    try {
      next = SessionRecord.parse(change(base.value.session));
    } catch (err) {
      return fail('unreadable', (err as Error).message);
    }
    let tmp: string;
    try {
      tmp = await writeTemp(file, serialize(next));
    } catch (err) {
      return fail('failed', `${file}: ${(err as Error).message}`);
    }
    if (currentText(file) !== base.value.text) {
      unlinkQuietly(tmp);
      continue;
    }
    try {
      install(stateDir, tmp, true);
    } catch (err) {
      unlinkQuietly(tmp);
      if (err instanceof UnsafeStateFile) return fail('unreadable', err.message);
      return fail('failed', `${file}: ${(err as Error).message}`);
    }
    await fsyncDirAsync(stateDir).catch(() => undefined);
    return ok(next);
  }
  return updateSessionFile(stateDir, change);
}

function currentText(file: string): string | null {
  try {
    return readText(file);
  } catch {
    return null;
  }
}

/** The file's text; never blocks (a FIFO in its place is an UnsafeStateFile). */
function readText(file: string): string {
  return readRegularFileSync(file).toString('utf8');
}

function serialize(s: SessionRecord): string {
  return JSON.stringify(s, null, 2) + '\n';
}

/** The current file, checked writable over: a corrupt one is refused (not overwritten). */
function currentForWrite(stateDir: string): Result<SessionRecord> {
  assertPlainStateFile(sessionFilePath(stateDir));
  const current = readSessionFile(stateDir);
  if (!current.ok && current.code === 'unreadable') throw new Error(`${current.message} — not overwritten`);
  return current;
}

function readSessionText(stateDir: string): Result<{ text: string; session: SessionRecord }> {
  const file = sessionFilePath(stateDir);
  let text: string;
  try {
    text = readText(file);
  } catch (err) {
    if (err instanceof UnsafeStateFile) return fail('unreadable', err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail('not-found', `${file}: no such file (not a Mori state dir?)`);
    return fail('unreadable', `${file}: cannot be read (${code ?? (err as Error).message})`);
  }
  const parsed = parseSessionFile(file, text);
  return parsed.ok ? ok({ text, session: parsed.value }) : fail('unreadable', `${parsed.message} — not overwritten`);
}

/** Keeps the current version as the backup (when it is valid), then renames the synced temp file in. */
function install(stateDir: string, tmp: string, keepBackup: boolean): void {
  const file = sessionFilePath(stateDir);
  assertPlainStateFile(file);
  if (keepBackup) {
    const bakTmp = tempNameFor(path.join(stateDir, SESSION_BACKUP));
    try {
      linkSync(file, bakTmp);
    } catch {
      copyFileSync(file, bakTmp); // a filesystem without hard links
    }
    renameSync(bakTmp, path.join(stateDir, SESSION_BACKUP));
  }
  renameSync(tmp, file);
  recordOwnWrite(file);
}

function backupIsValid(stateDir: string): boolean {
  const file = path.join(stateDir, SESSION_BACKUP);
  try {
    return parseSessionFile(file, readText(file)).ok;
  } catch {
    return false;
  }
}
