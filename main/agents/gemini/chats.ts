// Where Gemini CLI keeps its chats, and whether a resumable one is there (DESIGN.md §5):
// `$GEMINI_CLI_HOME/.gemini/tmp/<slug>/chats/session-<time>-<id8>.json[l]`. The lookups read the
// disk, every file through main/os/agent-file.ts (a FIFO, symlink or huge file there is skipped,
// never waited on). Checked against Gemini CLI 0.61.0. Runs in the supervisor's process.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { forEachAgentFileLine, isAgentFileError, listAgentDir, readAgentFile, readAgentFileRange } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { homeDir } from '../launch-helpers.js';
import { cwdForms, MAX_DIR_ENTRIES } from '../record-files.js';

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
