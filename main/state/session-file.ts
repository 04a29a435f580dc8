// Reads and writes session.json (DESIGN.md §3): zod-validated, schema-versioned, written atomically,
// with session.json.bak holding the last valid version. A corrupt file is reported with its path and
// left exactly as it is: Mori refuses to write over it. Any Node process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_SCHEMA_VERSION, SessionFile, type SessionFileInput } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomicSync } from './atomic-write.js';

export const SESSION_FILE = 'session.json';
export const SESSION_BACKUP = 'session.json.bak';

export function sessionFilePath(stateDir: string): string {
  return path.join(stateDir, SESSION_FILE);
}

/** Parses session.json bytes; the message names the file and what is wrong with it. */
export function parseSessionFile(file: string, text: string): Result<SessionFile> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail('unreadable', `${file}: not valid JSON (${(err as Error).message})`);
  }
  const version = (json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > SESSION_SCHEMA_VERSION) {
    return fail('unreadable', `${file}: written by a newer Mori (schemaVersion ${version}; this one reads ${SESSION_SCHEMA_VERSION})`);
  }
  const parsed = SessionFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'top level';
    return fail('unreadable', `${file}: ${where}: ${issue?.message ?? 'does not match the session schema'}`);
  }
  return ok(parsed.data);
}

export function readSessionFile(stateDir: string): Result<SessionFile> {
  const file = sessionFilePath(stateDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
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

/**
 * Validates and atomically writes session.json. The previous version, if valid, is kept as
 * session.json.bak first. Throws — and writes nothing — when the data is invalid or the file on disk
 * is corrupt (so a person can look at it before anything replaces it).
 */
export function writeSessionFile(stateDir: string, data: SessionFileInput): SessionFile {
  const file = sessionFilePath(stateDir);
  const valid = SessionFile.parse(data);
  const current = readSessionFile(stateDir);
  if (!current.ok && current.code === 'unreadable') {
    throw new Error(`${current.message} — not overwritten`);
  }
  if (current.ok) {
    writeAtomicSync(path.join(stateDir, SESSION_BACKUP), readFileSync(file));
  }
  writeAtomicSync(file, JSON.stringify(valid, null, 2) + '\n');
  return valid;
}

/** Read → change → write, for one supervisor's updates to its own sessions. */
export function updateSessionFile(stateDir: string, change: (s: SessionFile) => SessionFileInput): Result<SessionFile> {
  const current = readSessionFile(stateDir);
  if (!current.ok) return current;
  try {
    return ok(writeSessionFile(stateDir, change(current.value)));
  } catch (err) {
    return fail('unreadable', (err as Error).message);
  }
}

function backupIsValid(stateDir: string): boolean {
  const file = path.join(stateDir, SESSION_BACKUP);
  try {
    return parseSessionFile(file, readFileSync(file, 'utf8')).ok;
  } catch {
    return false;
  }
}
