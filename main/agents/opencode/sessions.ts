// Where opencode (DESIGN.md §5) keeps its sessions, read without its database engine: its data dir is
// `$XDG_DATA_HOME/opencode` (else `~/.local/share/opencode`) holding `opencode.db` (SQLite, with a
// `-wal` beside it) and `log/*.log`. A new session is logged as one line
// `timestamp=<ISO> level=INFO … message=created id=ses_<26> … directory=<cwd> …`, which is how its id
// is learnt; a session is on disk when its id is in the database's bytes (SQLite stores text as is).
// The prompt history `$XDG_STATE_HOME/opencode/prompt-history.jsonl` is appended when a prompt is
// submitted. Every file here is agent-written: only an id of the exact form is ever taken from them,
// and each is read through main/os/agent-file.ts (a FIFO or symlink is skipped, reads are capped).
// Checked against opencode 1.18.33. Runs in the supervisor's process.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { agentFileContains, isAgentFileError, listAgentDir, readAgentFileTail } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { homeDir } from '../launch-helpers.js';

/** opencode's session ids: `ses_` and 26 letters and digits (12 hex of time, 14 random base62). */
export const OPENCODE_ID_PATTERN = /^ses_[0-9A-Za-z]{26}$/;

/** A log line that records a session's creation: its time, id and directory (quoted when it holds a space). */
const CREATED_LINE = /^timestamp=(\S+) .*?\bmessage=created id=(ses_[0-9A-Za-z]{26}) .*?\bdirectory=("[^"]*"|\S+)/;

/** Logs are read from their end: a session created by this launch is in the last lines, and a log can grow large. */
const LOG_TAIL_BYTES = 4 * 1024 * 1024;

/**
 * Database files are searched up to this size (in 1 MiB chunks, off the event loop): far above any
 * opencode.db seen (a few MiB after months), while a sparse multi-terabyte file planted there is not read to its end.
 */
const DB_MAX_BYTES = 4 * 1024 * 1024 * 1024;

/** One log per opencode run: a dir listing is cut here so a dir flooded with names is not listed whole. */
const MAX_LOGS = 10_000;

/** opencode stamps a session on creation, a moment after its launch: allow for clocks read in two processes. */
const CREATED_SLACK_MS = 1_000;

const xdg = (env: Env, variable: string, fallback: string): string => {
  const v = env[variable];
  return v !== undefined && v !== '' && path.isAbsolute(v) ? v : path.join(homeDir(env), fallback);
};

/** Its config (opencode.json, plugins, themes): `$XDG_CONFIG_HOME/opencode`. */
export const opencodeConfigDir = (env: Env): string => path.join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'opencode');
/** Where it installs its plugins and provider packages: `$XDG_CACHE_HOME/opencode`. */
export const opencodeCacheDir = (env: Env): string => path.join(xdg(env, 'XDG_CACHE_HOME', '.cache'), 'opencode');
export const opencodeDataDir = (env: Env): string => path.join(xdg(env, 'XDG_DATA_HOME', path.join('.local', 'share')), 'opencode');
export const opencodeStateDir = (env: Env): string => path.join(xdg(env, 'XDG_STATE_HOME', path.join('.local', 'state')), 'opencode');
/** Appended when a prompt is submitted in the TUI (all sessions share it). */
export const opencodePromptHistory = (env: Env): string => path.join(opencodeStateDir(env), 'prompt-history.jsonl');

/** The last `bytes` of a log, or '' when it is not a regular file. */
async function tail(file: string, bytes: number): Promise<string> {
  const read = await readAgentFileTail(file, bytes);
  return isAgentFileError(read) ? '' : read.bytes.toString('utf8');
}

export interface CreatedSession {
  id: string;
  atMs: number;
  directory: string;
}

/** The sessions a log text records as created, in order. Pure. */
export function parseCreatedSessions(text: string): CreatedSession[] {
  const out: CreatedSession[] = [];
  for (const line of text.split('\n')) {
    const m = CREATED_LINE.exec(line);
    if (m === null) continue;
    const atMs = Date.parse(m[1] as string);
    const raw = m[3] as string;
    if (Number.isNaN(atMs)) continue;
    out.push({ id: m[2] as string, atMs, directory: raw.startsWith('"') ? raw.slice(1, -1) : raw });
  }
  return out;
}

/** The first session created in `cwd` since `startedAtMs` that no other Mori session holds, from opencode's logs; null if none yet. */
export async function findOpencodeSession(env: Env, cwd: string, startedAtMs: number, taken: readonly string[] = []): Promise<string | null> {
  const dir = path.join(opencodeDataDir(env), 'log');
  const names = (await listAgentDir(dir, MAX_LOGS)).map((e) => e.name);
  const wanted = new Set([path.resolve(cwd), await fs.realpath(cwd).catch(() => path.resolve(cwd))]);
  let best: CreatedSession | null = null;
  for (const name of names.filter((n) => n.endsWith('.log'))) {
    const text = await tail(path.join(dir, name), LOG_TAIL_BYTES);
    for (const s of parseCreatedSessions(text)) {
      if (s.atMs < startedAtMs - CREATED_SLACK_MS || taken.includes(s.id) || !wanted.has(path.resolve(s.directory))) continue;
      if (best === null || s.atMs < best.atMs) best = s;
    }
  }
  return best?.id ?? null;
}

/** Whether `needle` occurs in `file` (a regular file only, read a chunk at a time up to DB_MAX_BYTES). */
async function fileContains(file: string, needle: string): Promise<boolean> {
  return (await agentFileContains(file, needle, DB_MAX_BYTES)) === true;
}

/** Whether opencode's database (or its write-ahead log, not yet checkpointed) holds session `id`. */
export async function opencodeSessionExists(env: Env, id: string): Promise<boolean> {
  if (!OPENCODE_ID_PATTERN.test(id)) return false;
  const db = path.join(opencodeDataDir(env), 'opencode.db');
  return (await fileContains(db, id)) || (await fileContains(`${db}-wal`, id));
}
