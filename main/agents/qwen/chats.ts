// Where Qwen Code keeps its chats (DESIGN.md §5): `<runtime dir>/projects/<cwd with every character
// but letters and digits made "-">/chats/<session id>.jsonl`, the runtime dir being $QWEN_RUNTIME_DIR,
// else $QWEN_HOME, else ~/.qwen. The chat's first line is the person's first prompt (`"type":"user"`),
// written when it is submitted; a chat without one is not resumable. Every file is read through
// main/os/agent-file.ts. Checked against Qwen Code 0.24.4. Runs in the supervisor's process.
import path from 'node:path';
import { forEachAgentFileLine } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { homeDir } from '../launch-helpers.js';
import { cwdForms, exists } from '../record-files.js';

const set = (v: string | undefined): v is string => v !== undefined && v !== '';

/** `$QWEN_HOME` (default `~/.qwen`): its settings, credentials and (unless moved) its runtime data. */
export function qwenHome(env: Env): string {
  const home = env['QWEN_HOME'];
  return set(home) ? path.resolve(home) : path.join(homeDir(env), '.qwen');
}

/** Where its chats and other runtime output go: `$QWEN_RUNTIME_DIR`, else its home. */
export function qwenRuntimeDir(env: Env): string {
  const dir = env['QWEN_RUNTIME_DIR'];
  return set(dir) ? path.resolve(dir) : qwenHome(env);
}

/** Qwen Code's project id for a directory: every character but ASCII letters and digits made "-". */
export const qwenProjectId = (cwd: string): string => cwd.replace(/[^a-zA-Z0-9]/g, '-');

/** The chat files this session id could be in: one per form of the cwd (as given, and with links resolved). */
async function chatCandidates(env: Env, cwd: string, sessionId: string): Promise<string[]> {
  const base = path.join(qwenRuntimeDir(env), 'projects');
  return (await cwdForms(cwd)).map((form) => path.join(base, qwenProjectId(form), 'chats', `${sessionId}.jsonl`));
}

/** The chat file of this session id, or null when none is on disk. */
export async function qwenChatPath(env: Env, cwd: string, sessionId: string): Promise<string | null> {
  for (const file of await chatCandidates(env, cwd, sessionId)) if (await exists(file)) return file;
  return null;
}

/** A chat's first prompt is among its first lines; a chat is searched no further than this for one. */
const QWEN_CHAT_SCAN_BYTES = 64 * 1024 * 1024;
/** A record line names its type within its first few hundred characters (after uuid, parentUuid, sessionId, timestamp). */
const QWEN_LINE_HEAD_CHARS = 300;

/** Whether the session's chat holds a turn (a user or assistant record), so `--resume <id>` can work. */
export async function qwenChatExists(env: Env, cwd: string, sessionId: string): Promise<boolean> {
  const file = await qwenChatPath(env, cwd, sessionId);
  if (file === null) return false;
  const found = await forEachAgentFileLine(file, (line) => /"type":"(?:user|assistant)"/.test(line.slice(0, QWEN_LINE_HEAD_CHARS)), QWEN_CHAT_SCAN_BYTES);
  return found === true;
}
