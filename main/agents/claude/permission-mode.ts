// The permission mode a Claude Code conversation runs in, from its transcript (DESIGN.md §5): claude
// writes a `{"type":"permission-mode","permissionMode":"auto",…}` line when a conversation starts or
// its mode changes (shift+tab, `--permission-mode`), and stamps `permissionMode` on each prompt it
// records. The last one written is the mode now. The transcript is read through
// main/os/agent-file.ts; picking the mode and naming it are pure. Checked against Claude Code 2.1.332,
// whose modes are auto (its default), default (`--permission-mode manual`), acceptEdits, plan,
// dontAsk and bypassPermissions. Runs in the supervisor's process.
import { isAgentFileError, readAgentFileRange, readAgentFileTail } from '../../os/agent-file.js';
import type { AgentSessionRef, Env } from '../profile.js';
import { claudeTranscriptPath } from './transcript.js';

/** A prompt's line is a few KB; the end of a transcript this long holds the last prompt or mode change of any real turn. */
const TAIL_BYTES = 512 * 1024;
/** The first mode line comes within the first few lines of a transcript (a long tool output can push prompts out of the tail). */
const HEAD_BYTES = 64 * 1024;

const MODE_FIELD = /"permissionMode":"([A-Za-z]{1,32})"/g;

/** Claude's names for its modes, in the words Mori shows. */
const WORDS: Record<string, string> = {
  auto: 'auto',
  default: 'default',
  manual: 'default',
  acceptEdits: 'accept-edits',
  plan: 'plan',
  dontAsk: 'dont-ask',
  bypassPermissions: 'bypass',
};

/** The mode's words: Claude's own name mapped, another (a later version's) shown as written, lower-cased. */
export const permissionModeWords = (mode: string): string => WORDS[mode] ?? mode.toLowerCase();

/** The last mode a piece of transcript records, or null. */
export function lastPermissionMode(text: string): string | null {
  let last: string | null = null;
  for (const m of text.matchAll(MODE_FIELD)) last = m[1] ?? last;
  return last === null ? null : permissionModeWords(last);
}

/** The conversation's permission mode in Mori's words, or null when its transcript is absent or says none. */
export async function claudePermissionMode(ref: AgentSessionRef, env: Env): Promise<string | null> {
  if (ref.agentSessionId === null) return null;
  const file = claudeTranscriptPath(env, ref.cwd, ref.agentSessionId);
  const tail = await readAgentFileTail(file, TAIL_BYTES);
  if (isAgentFileError(tail)) return null;
  const fromTail = lastPermissionMode(tail.bytes.toString('utf8'));
  if (fromTail !== null) return fromTail;
  const head = await readAgentFileRange(file, 0, HEAD_BYTES);
  return isAgentFileError(head) ? null : lastPermissionMode(head.bytes.toString('utf8'));
}
