// The nudge a resume is typing, on record in session.json (`nudgeTyped`, DESIGN.md §4 "Resume
// action"): written through the SessionStore before the text is typed, cleared when the resume ends.
// A supervisor killed in between (after the Enter, before it saw the agent take it) leaves it; the
// next supervisor, resuming the same interruption with that same process still running (its pid and
// start time), asks the agent's own record whether it took input since (tookInputSince), or reads its
// screen at work on that text, and when it did, types nothing again. Runs in the supervisor's process.
import type { InterruptReason, SessionRecord } from '../../../common/session.js';
import type { Env } from '../../agents/profile.js';
import { detectActivity } from '../../agents/screen-activity.js';
import { shownCount } from '../../agents/typing.js';
import { processStartTimeAsync } from '../../os/process-start.js';
import type { SessionRuntime } from '../session/session-runtime.js';

export type NudgeTyped = NonNullable<SessionRecord['nudgeTyped']>;
/** A change of session.json, as the SessionStore writes it. */
type Change = (s: SessionRecord) => SessionRecord;

/** The record of a nudge about to be typed, at `atMs` (wall clock), into the agent process `pid`, for `reason`. */
export async function nudgeTyped(reason: InterruptReason, pid: number, atMs: number): Promise<NudgeTyped> {
  return { reason, pid, pidStart: await processStartTimeAsync(pid), at: atMs };
}

export const nudgeMarked =
  (n: NudgeTyped): Change =>
  (s) => ({ ...s, nudgeTyped: n });

/** The change that clears the record (`only`: that one, not one written since by another resume). */
export const nudgeCleared =
  (only?: NudgeTyped): Change =>
  (s) => (s.nudgeTyped === null || (only !== undefined && s.nudgeTyped.at !== only.at) ? s : { ...s, nudgeTyped: null });

/**
 * Whether the nudge on record went into the agent `rt` runs now, for this same interruption, and the
 * agent took it: its own record says it took input since the nudge began to be typed, or its screen
 * shows `text` and a turn under way. A text only typed (the supervisor killed before Enter) is neither:
 * the agent's record changes only when a prompt is submitted.
 */
export async function nudgeTakenBefore(rt: SessionRuntime, reason: InterruptReason, env: Env, text: string): Promise<boolean> {
  const n = rt.session.nudgeTyped;
  const t = rt.terminal;
  if (n === null || n.reason !== reason || t === null || t.pid !== n.pid) return false;
  // Another process that got the same pid took no nudge of ours.
  if (n.pidStart !== null && (await processStartTimeAsync(t.pid)) !== n.pidStart) return false;
  const agentId = rt.session.agent.sessionId;
  if (rt.profile.tookInputSince !== undefined && agentId !== null) {
    const ref = { agentSessionId: agentId, cwd: rt.session.agent.cwd ?? rt.projectDir };
    if (await rt.profile.tookInputSince(ref, env, n.at).catch(() => false)) return true;
  }
  const screen = await t.screenText().catch(() => null);
  return screen !== null && shownCount(screen, text, rt.profile.typing) > 0 && detectActivity(rt.profile, screen) === 'working';
}
