// Where Pi keeps the sessions Mori starts (DESIGN.md §5). Pi has no flag for a caller's session id,
// but `--session <path>.jsonl` creates its session file at that path when none is there and resumes
// it when one is: so Mori names the file. Its id is the file's name without `.jsonl`, the file in a
// dir of Mori's own inside Pi's agent dir ($PI_CODING_AGENT_DIR, else ~/.pi/agent):
// `<agent dir>/sessions/mori/<id>.jsonl` — not among Pi's per-cwd dirs, so `pi -c` in the project
// never picks it. A session's `/new` in Pi writes its next file beside it (`<time>_<uuid>.jsonl`), whose
// name is an id of the same form. Pi writes the file only once the first answer has come (header,
// the prompt, the answer together). Files are read through main/os/agent-file.ts. Checked against Pi
// 0.73.1. Runs in the supervisor's process.
import path from 'node:path';
import { forEachAgentFileLine } from '../../os/agent-file.js';
import type { AgentIdForm, Env } from '../profile.js';
import { configDir } from '../launch-helpers.js';
import { exists } from '../record-files.js';

/** A session file's name without `.jsonl`: Mori's UUIDs and Pi's own `<ISO time with - for : and .>_<uuid>`; no dot, no slash. */
export const PI_ID_PATTERN = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;
export const PI_ID_FORM: AgentIdForm = { pattern: PI_ID_PATTERN, words: '1-128 letters, digits, "_" or "-" (a session file\'s name)' };

/** Pi's agent dir: its settings, models, credentials and sessions. */
export const piAgentDir = (env: Env): string => path.resolve(configDir(env, 'PI_CODING_AGENT_DIR', path.join('.pi', 'agent')));

/** The dir of the session files Mori names. */
export const piSessionDir = (env: Env): string => path.join(piAgentDir(env), 'sessions', 'mori');

/** The session file of this id (the id checked against its form first: it becomes a path). */
export function piSessionFile(env: Env, id: string): string | null {
  return PI_ID_PATTERN.test(id) ? path.join(piSessionDir(env), `${id}.jsonl`) : null;
}

/** The session file when it is on disk. */
export async function piSessionPath(env: Env, id: string): Promise<string | null> {
  const file = piSessionFile(env, id);
  return file !== null && (await exists(file)) ? file : null;
}

/** Pi's session files hold the header and a few settings lines before the first message; searched no further than this. */
const PI_SCAN_BYTES = 64 * 1024 * 1024;
/** A line names its type in its first few dozen characters (`{"type":"message","id":…`). */
const PI_LINE_HEAD_CHARS = 40;

/** Whether the session file holds a message (Pi writes it only with the first answer), so `--session` resumes a conversation. */
export async function piSessionExists(env: Env, id: string): Promise<boolean> {
  const file = await piSessionPath(env, id);
  if (file === null) return false;
  const found = await forEachAgentFileLine(file, (line) => line.slice(0, PI_LINE_HEAD_CHARS).startsWith('{"type":"message"'), PI_SCAN_BYTES);
  return found === true;
}
