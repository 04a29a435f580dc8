// The agent's own record as a source of usage limits (DESIGN.md §4): when a turn ends (the activity
// leaves working), the tail of the record its profile names (Claude Code's transcript, Codex's
// rollout: the transcript source of its limits) is read for a refused request. The file is the agent's, so hostile: read through
// main/os/agent-file.ts (no symlink followed, no FIFO waited on, only a regular file, and only its
// last bytes). At a limit's planned resume, the same tail is read once for an answer after the reset
// (the agent continued by itself). Runs in the supervisor's process.
import type { AgentActivity } from '../../../common/agent-activity.js';
import type { ProfileName } from '../../../common/session.js';
import type { Env } from '../../agents/profile.js';
import { PROFILES } from '../../agents/profiles.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';
import { isAgentFileError, readAgentFileTail } from '../../os/agent-file.js';
import { localZone } from './screen-limit-watch.js';

/** The last turn's entries fit in this many bytes; a refused request is the newest of them. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;

/** The last `bytes` of a regular file (from its first whole line), or null when it is not one. */
export async function readTail(file: string, bytes = TRANSCRIPT_TAIL_BYTES): Promise<string | null> {
  const read = await readAgentFileTail(file, bytes);
  if (isAgentFileError(read)) return null; // absent, a symlink, a FIFO or unreadable: no record to read
  const text = read.bytes.toString('utf8');
  return read.from === 0 ? text : text.slice(text.indexOf('\n') + 1);
}

export interface TranscriptLimitInput {
  profile: ProfileName;
  env: Env;
  agentSessionId: string | null;
  cwd: string;
  nowMs: number;
}

/** The usage limit the agent's record shows at the end of its last turn, or null. */
export async function transcriptUsageLimit(input: TranscriptLimitInput, zone = localZone()): Promise<UsageLimitSignal | null> {
  if (input.agentSessionId === null) return null;
  const source = PROFILES[input.profile].limits?.transcript;
  if (source === undefined) return null;
  const file = await source.file(input.env, input.agentSessionId, input.cwd);
  const tail = file === null ? null : await readTail(file);
  return tail === null ? null : source.usageLimit(tail, input.nowMs, zone);
}

/** Whether the agent's record holds an answer after `sinceMs` (a profile whose record cannot tell: false). */
export async function transcriptAnsweredSince(input: TranscriptLimitInput, sinceMs: number): Promise<boolean> {
  const source = PROFILES[input.profile].limits?.transcript;
  if (input.agentSessionId === null || source?.answeredSince === undefined) return false;
  const file = await source.file(input.env, input.agentSessionId, input.cwd);
  const tail = file === null ? null : await readTail(file);
  return tail !== null && source.answeredSince(tail, sinceMs, input.nowMs);
}

/** A turn just ended: the moment the record holds its outcome. */
export const turnEnded = (from: AgentActivity, to: AgentActivity): boolean => from === 'working' && (to === 'waiting' || to === 'error');
