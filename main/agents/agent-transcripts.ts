// Where each agent keeps its own record of a session, and whether it is there (DESIGN.md §5):
// claude's transcript jsonl, codex's rollout files, gemini's chats dir, aider's history file.
// Path rules are pure; the lookups read the disk, every file through main/os/agent-file.ts (these
// dirs are the agents' own: a FIFO, symlink or huge file there is skipped, never waited on). Runs in
// the supervisor's process.
// Checked against Claude Code 2.1.332, Codex CLI 0.171.0 and Gemini CLI 0.61.0.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { forEachAgentFileLine, isAgentFileError, listAgentDir, readAgentFile, readAgentFileRange, statAgentFile } from '../os/agent-file.js';
import type { Env } from './profile.js';
import { configDir, homeDir } from './launch-helpers.js';

// ---- claude -----------------------------------------------------------------------------------

/** Entries listed per dir of an agent's: far above what a CLI writes there, so a flooded dir is not listed whole. */
const MAX_DIR_ENTRIES = 10_000;

/** Claude Code caps a project dir name at this many characters, then appends a hash (its own constant). */
const CLAUDE_DIR_NAME_MAX = 200;

/** Claude's 32-bit string hash (Java's String.hashCode over UTF-16 units), used for long dir names. */
function claudeStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** `/home/me/proj` → `-home-me-proj`: each non-alphanumeric char becomes '-'; long names are cut and hashed. */
export function claudeProjectDirName(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= CLAUDE_DIR_NAME_MAX) return name;
  return `${name.slice(0, CLAUDE_DIR_NAME_MAX)}-${Math.abs(claudeStringHash(cwd)).toString(36)}`;
}

/** `$CLAUDE_CONFIG_DIR` (default `~/.claude`). */
export const claudeConfigDir = (env: Env): string => configDir(env, 'CLAUDE_CONFIG_DIR', '.claude');

/** `$CLAUDE_CONFIG_DIR/projects/<cwd mangled>/<uuid>.jsonl`. */
export function claudeTranscriptPath(env: Env, cwd: string, sessionId: string): string {
  return path.join(claudeConfigDir(env), 'projects', claudeProjectDirName(cwd), `${sessionId}.jsonl`);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** The cwd as given and as resolved: claude keys by the real path (e.g. /private/tmp on macOS). */
async function cwdForms(cwd: string): Promise<string[]> {
  const forms = [path.resolve(cwd)];
  try {
    const real = await fs.realpath(cwd);
    if (!forms.includes(real)) forms.push(real);
  } catch {
    // a cwd that is gone is still looked up by its recorded name
  }
  return forms;
}

export async function claudeTranscriptExists(env: Env, cwd: string, sessionId: string): Promise<boolean> {
  for (const form of await cwdForms(cwd)) {
    if (await exists(claudeTranscriptPath(env, form, sessionId))) return true;
    const name = form.replace(/[^a-zA-Z0-9]/g, '-');
    if (name.length > CLAUDE_DIR_NAME_MAX) {
      // Builds of claude that hash differently still share the prefix; it searches them the same way.
      const prefix = `${name.slice(0, CLAUDE_DIR_NAME_MAX)}-`;
      const projects = path.join(claudeConfigDir(env), 'projects');
      const dirs = (await listAgentDir(projects, MAX_DIR_ENTRIES)).map((e) => e.name);
      for (const dir of dirs) {
        if (dir.startsWith(prefix) && (await exists(path.join(projects, dir, `${sessionId}.jsonl`)))) return true;
      }
    }
  }
  return false;
}

// ---- codex ------------------------------------------------------------------------------------

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

/** Modified at or after `sinceMs` (an agent appends the person's prompt to its record when it takes it). */
export async function writtenSince(file: string | null, sinceMs: number): Promise<boolean> {
  if (file === null) return false;
  const st = await statAgentFile(file);
  return !isAgentFileError(st) && st.mtimeMs >= sinceMs;
}

/** The id codex prints when it exits: "To continue this session, run: codex resume <id>" (or "To reconnect"). */
export function parseCodexExitId(text: string): string | null {
  const all = [...text.matchAll(/codex resume ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi)];
  const last = all.at(-1);
  return last === undefined ? null : (last[1] as string).toLowerCase();
}

// ---- gemini -----------------------------------------------------------------------------------

/** `$GEMINI_CLI_HOME/.gemini` (default `~/.gemini`). */
export function geminiDir(env: Env): string {
  const home = env['GEMINI_CLI_HOME'];
  return path.join(home !== undefined && home !== '' ? home : homeDir(env), '.gemini');
}

/** projects.json maps each project dir to a short slug: a few KiB for hundreds of projects. */
const GEMINI_PROJECTS_MAX_BYTES = 1024 * 1024;

/** The project's chats dirs: `tmp/<slug from projects.json>/chats`, and the older `tmp/<sha256(cwd)>/chats`. */
export async function geminiChatsDirs(env: Env, cwd: string): Promise<string[]> {
  const base = geminiDir(env);
  const dirs: string[] = [];
  let projects: Record<string, unknown> = {};
  try {
    const text = await readAgentFile(path.join(base, 'projects.json'), GEMINI_PROJECTS_MAX_BYTES);
    const parsed = isAgentFileError(text) ? {} : (JSON.parse(text.toString('utf8')) as { projects?: Record<string, unknown> });
    projects = parsed.projects ?? {};
  } catch {
    // no registry yet: only the hashed dir can exist
  }
  for (const form of await cwdForms(cwd)) {
    const slug = projects[form];
    if (typeof slug === 'string') dirs.push(path.join(base, 'tmp', slug, 'chats'));
    dirs.push(path.join(base, 'tmp', createHash('sha256').update(form).digest('hex'), 'chats'));
  }
  return [...new Set(dirs)];
}

/** Gemini's header line holds the session id within its first few hundred bytes. */
const GEMINI_HEAD_BYTES = 4096;
/** A message line names its type near its start (`{"id":…,"timestamp":…,"type":"user",…`). */
const GEMINI_LINE_HEAD_CHARS = 200;
/** A chat's first turn is within its first lines; a chat is searched no further than this for one. */
const GEMINI_CHAT_SCAN_BYTES = 64 * 1024 * 1024;

/**
 * Whether a `.jsonl` chat holds a turn: a message line (not the header, not a `$set` such as the
 * session context Gemini writes at start) of type `user` or `gemini`. Gemini writes the person's
 * prompt only once its request is under way, and refuses to resume a chat without one (exit 42,
 * "Invalid session identifier"); its session cleanup, on by default, also deletes such chats (and
 * any older than 30 days) when it next starts. So a chat killed before its first turn is not resumable.
 */
async function geminiChatHasTurn(file: string): Promise<boolean> {
  const found = await forEachAgentFileLine(
    file,
    (line) => line.startsWith('{"id":') && /"type":"(?:user|gemini)"/.test(line.slice(0, GEMINI_LINE_HEAD_CHARS)),
    GEMINI_CHAT_SCAN_BYTES,
  );
  return found === true;
}

/**
 * Whether gemini saved a resumable chat `session-<time>-<first 8 of id>.json[l]` holding this
 * session id (and, for `.jsonl` chats, at least one turn).
 */
export async function geminiChatExists(env: Env, cwd: string, sessionId: string): Promise<boolean> {
  return (await geminiChatPath(env, cwd, sessionId, true)) !== null;
}

/** The chat file of this session id; with `needTurn`, only one that holds a turn (a resumable one). Null when none. */
export async function geminiChatPath(env: Env, cwd: string, sessionId: string, needTurn: boolean): Promise<string | null> {
  const short = sessionId.slice(0, 8);
  const idPattern = new RegExp(`"sessionId"\\s*:\\s*"${sessionId.replace(/[^0-9a-zA-Z-]/g, '')}"`);
  for (const dir of await geminiChatsDirs(env, cwd)) {
    for (const { name } of await listAgentDir(dir, MAX_DIR_ENTRIES)) {
      if (!name.startsWith('session-') || !(name.endsWith(`-${short}.json`) || name.endsWith(`-${short}.jsonl`))) continue;
      const file = path.join(dir, name);
      const head = await readAgentFileRange(file, 0, GEMINI_HEAD_BYTES);
      // A FIFO, symlink or unreadable chat is not a resumable one.
      if (isAgentFileError(head)) continue;
      if (idPattern.test(head.bytes.toString('utf8')) && (!needTurn || !name.endsWith('.jsonl') || (await geminiChatHasTurn(file)))) return file;
    }
  }
  return null;
}

// ---- aider ------------------------------------------------------------------------------------

/** Aider's default `--chat-history-file`, in the directory it runs in. */
export const AIDER_HISTORY_FILE = '.aider.chat.history.md';

export const aiderHistoryExists = (cwd: string): Promise<boolean> => exists(path.join(cwd, AIDER_HISTORY_FILE));
