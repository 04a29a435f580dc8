// Where Codex keeps its rollout of a session, how a launch's session is found among them, and the
// id it prints on exit (DESIGN.md §5): `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<uuid>.jsonl`.
// The lookups read the disk, every file through main/os/agent-file.ts (a FIFO, symlink or huge file
// there is skipped, never waited on). Checked against Codex CLI 0.171.0. Runs in the supervisor's process.
import path from 'node:path';
import { isAgentFileError, listAgentDir, readAgentFileRange, statAgentFile } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { configDir } from '../launch-helpers.js';
import { cwdForms, MAX_DIR_ENTRIES } from '../record-files.js';

/** `$CODEX_HOME` (default `~/.codex`). */
export const codexHome = (env: Env): string => configDir(env, 'CODEX_HOME', '.codex');

const ROLLOUT_NAME = /^rollout-.+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const DAY_MS = 86_400_000;
/** The session_meta line carries the model's base instructions (tens of KiB); cwd is in its first part. */
const ROLLOUT_HEAD_BYTES = 256 * 1024;
/** Clock steps and coarse mtimes: a rollout a little older than the launch may still be ours. */
const ROLLOUT_SLACK_MS = 5_000;
/**
 * A rollout's start time is written by the same clock as the launch's, so only a clock step can put
 * ours before the launch; a wider slack would take a session started in the same directory just
 * before (codex needs well over a second to start, so a neighbour's rollout is older than that).
 */
const ROLLOUT_START_SLACK_MS = 1_000;

interface Rollout {
  file: string;
  id: string;
  mtimeMs: number;
}

/** Rollout files under `sessions/YYYY/MM/DD/` for the days around [fromMs, now], newest first. */
async function listRollouts(env: Env, fromMs: number, nowMs: number): Promise<Rollout[]> {
  const root = path.join(codexHome(env), 'sessions');
  const days = new Set<string>();
  // Codex names day dirs by a calendar date; take both the UTC and local reading of each day touched.
  for (let t = fromMs - DAY_MS; t <= nowMs + DAY_MS; t += DAY_MS / 2) {
    const d = new Date(t);
    const pad = (n: number): string => String(n).padStart(2, '0');
    days.add(path.join(String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())));
    days.add(path.join(String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())));
  }
  const found: Rollout[] = [];
  for (const day of days) {
    const dir = path.join(root, day);
    for (const { name } of await listAgentDir(dir, MAX_DIR_ENTRIES)) {
      const m = ROLLOUT_NAME.exec(name);
      if (m === null) continue;
      const file = path.join(dir, name);
      const st = await statAgentFile(file);
      if (isAgentFileError(st)) continue;
      found.push({ file, id: (m[1] as string).toLowerCase(), mtimeMs: st.mtimeMs });
    }
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** What a rollout's first line (`session_meta`) says: where and when the session started. */
export interface RolloutMeta {
  cwd: string;
  /** Epoch ms the session started (the line's `timestamp`), or null when it has none. */
  startedAtMs: number | null;
}

/** The cwd and start time recorded in a rollout's first line (`session_meta`), or null. */
export async function readRolloutMeta(file: string): Promise<RolloutMeta | null> {
  const head = await readAgentFileRange(file, 0, ROLLOUT_HEAD_BYTES);
  if (isAgentFileError(head)) return null;
  try {
    const firstLine = head.bytes.toString('utf8').split('\n', 1)[0] ?? '';
    if (!firstLine.includes('"session_meta"')) return null;
    // Inside a JSON string a quote is escaped, so this only matches the key itself.
    const m = /"cwd":("(?:[^"\\]|\\.)*")/.exec(firstLine);
    if (m === null) return null;
    // The line opens with its own timestamp: `{"timestamp":"2026-11-30T17:20:08.449Z",...`.
    const t = /^\{"timestamp":"([^"]+)"/.exec(firstLine);
    const at = t === null ? NaN : Date.parse(t[1] as string);
    return { cwd: JSON.parse(m[1] as string) as string, startedAtMs: Number.isNaN(at) ? null : at };
  } catch {
    return null;
  }
}

/** The cwd recorded in a rollout's first line (`session_meta.payload.cwd`), or null. */
export async function readRolloutCwd(file: string): Promise<string | null> {
  return (await readRolloutMeta(file))?.cwd ?? null;
}

/**
 * The session codex started for a launch at `startedAtMs` in `cwd`: the first rollout started since
 * then (by its own start time, not its mtime: a session already running there keeps writing) whose
 * recorded cwd is `cwd` and whose id is not `taken` by another Mori session. Codex writes the rollout
 * when the first prompt is submitted (at once when the prompt is on argv), so null until then.
 */
export async function findCodexSession(env: Env, cwd: string, startedAtMs: number, nowMs = Date.now(), taken: readonly string[] = []): Promise<string | null> {
  const wanted = new Set(await cwdForms(cwd));
  const skip = new Set(taken.map((id) => id.toLowerCase()));
  let best: { id: string; at: number } | null = null;
  for (const r of await listRollouts(env, startedAtMs, nowMs)) {
    if (r.mtimeMs < startedAtMs - ROLLOUT_SLACK_MS || skip.has(r.id)) continue;
    const meta = await readRolloutMeta(r.file);
    if (meta === null || !wanted.has(path.resolve(meta.cwd))) continue;
    const at = meta.startedAtMs ?? r.mtimeMs;
    if (at < startedAtMs - ROLLOUT_START_SLACK_MS) continue;
    if (best === null || at < best.at) best = { id: r.id, at };
  }
  return best?.id ?? null;
}

/** The rollout file of this session id (any day: a resumed session may be weeks old); null when none is on disk. */
export async function codexRolloutPath(env: Env, sessionId: string): Promise<string | null> {
  const root = path.join(codexHome(env), 'sessions');
  const suffix = `-${sessionId.toLowerCase()}.jsonl`;
  const walk = async (dir: string, depth: number): Promise<string | null> => {
    for (const e of await listAgentDir(dir, MAX_DIR_ENTRIES)) {
      if (depth < 3 && e.isDirectory()) {
        const found = await walk(path.join(dir, e.name), depth + 1);
        if (found !== null) return found;
      }
      if (depth === 3 && e.isFile() && e.name.toLowerCase().endsWith(suffix)) return path.join(dir, e.name);
    }
    return null;
  };
  return walk(root, 0);
}

/** Whether a rollout of this session id is on disk. */
export async function codexRolloutExists(env: Env, sessionId: string): Promise<boolean> {
  return (await codexRolloutPath(env, sessionId)) !== null;
}

/** The id codex prints when it exits: "To continue this session, run: codex resume <id>" (or "To reconnect"). */
export function parseCodexExitId(text: string): string | null {
  const all = [...text.matchAll(/codex resume ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi)];
  const last = all.at(-1);
  return last === undefined ? null : (last[1] as string).toLowerCase();
}
