// The agent's own record as a source of usage limits (DESIGN.md §4): when a turn ends (the activity
// leaves working), the tail of Claude Code's transcript or Codex's rollout is read for a refused
// request (limit-transcript.ts). The file is the agent's, so hostile: opened without following a
// symlink and without blocking on a FIFO, only a regular file, and only its last bytes. Runs in the
// supervisor's process.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { AgentActivity } from '../../../common/agent-activity.js';
import type { ProfileName } from '../../../common/session.js';
import { claudeTranscriptPath, codexRolloutPath } from '../../agents/agent-transcripts.js';
import type { Env } from '../../agents/profile.js';
import { claudeTranscriptUsageLimit, codexRolloutUsageLimit } from '../../agents/usage-limit/limit-transcript.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';
import { localZone } from './screen-limit-watch.js';

/** The last turn's entries fit in this many bytes; a refused request is the newest of them. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The last `bytes` of a regular file (from its first whole line), or null when it is not one. */
export async function readTail(file: string, bytes = TRANSCRIPT_TAIL_BYTES): Promise<string | null> {
  let fh;
  try {
    fh = await open(file, READ_FLAGS);
  } catch {
    return null; // absent, a symlink, or unreadable: no record to read
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const start = Math.max(0, st.size - bytes);
    const buf = Buffer.alloc(Math.min(bytes, st.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, start);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    await fh.close();
  }
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
  if (input.profile === 'claude') {
    const tail = await readTail(claudeTranscriptPath(input.env, input.cwd, input.agentSessionId));
    return tail === null ? null : claudeTranscriptUsageLimit(tail, input.nowMs, zone);
  }
  if (input.profile === 'codex') {
    const file = await codexRolloutPath(input.env, input.agentSessionId);
    const tail = file === null ? null : await readTail(file);
    return tail === null ? null : codexRolloutUsageLimit(tail, input.nowMs, zone);
  }
  return null;
}

/** A turn just ended: the moment the record holds its outcome. */
export const turnEnded = (from: AgentActivity, to: AgentActivity): boolean => from === 'working' && (to === 'waiting' || to === 'error');
