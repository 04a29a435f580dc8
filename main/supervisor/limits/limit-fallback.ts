// The usage-limit policy's choices (DESIGN.md §5, "Hand-off"): at a new usage limit, whether the
// session waits for the reset or continues with another agent, from its own `onUsageLimit` or the
// daemon's default; and at the reset, whether a session handed over goes back to its first agent.
// Pure; runs in the supervisor's process.
import type { HandedOver, OnUsageLimit, ProfileName, SessionRecord } from '../../../common/session.js';
import { clockWords } from '../../../common/session-view.js';

/** What a session does at a limit when neither it nor the daemon says. */
export const DEFAULT_ON_USAGE_LIMIT: OnUsageLimit = 'wait';

/** The agent a session at its limit continues with, and what happens at the reset: `back` to the first agent, or `stay`. */
export interface LimitFallback {
  to: ProfileName;
  atReset: 'back' | 'stay';
}

/**
 * The fallback of a session at its limit, or null to wait. The agent that hit the limit is never its
 * own fallback: a session already handed over waits for its fallback's reset. `handoff:codex` goes
 * back at the reset; `handoff:codex:stay` stays.
 */
export function limitFallback(session: Pick<SessionRecord, 'onUsageLimit' | 'agent'>, daemonDefault: OnUsageLimit = DEFAULT_ON_USAGE_LIMIT): LimitFallback | null {
  const policy = session.onUsageLimit ?? daemonDefault;
  if (!policy.startsWith('handoff:')) return null;
  const [to, atReset] = policy.slice('handoff:'.length).split(':') as [ProfileName, 'back' | 'stay' | undefined];
  return to === session.agent.profile ? null : { to, atReset: atReset ?? 'back' };
}

/** The reason a limit's hand-off gives, with the reset's time when known: `usage limit reached, resets 14:00`. */
export function limitHandoffReason(resetAt: number | null): string {
  return `usage limit reached${resetAt === null ? '' : `, resets ${clockWords(resetAt)}`}`;
}

/**
 * What the reset does to a session handed over: `back` when its time came and the other agent still
 * has it (the person handed it on since, or it was stopped: `none`), else `wait` until `until`.
 */
export function handBackDue(session: Pick<SessionRecord, 'handedOver' | 'agent' | 'intent'>, nowMs: number): { kind: 'back'; to: ProfileName } | { kind: 'wait'; atMs: number } | { kind: 'none' } {
  const h: HandedOver | null = session.handedOver;
  if (h === null || h.to !== session.agent.profile || h.from === h.to) return { kind: 'none' };
  const stopped = session.intent.kind === 'user-stopped' || session.intent.kind === 'finished';
  if (stopped) return { kind: 'none' };
  return nowMs >= h.until ? { kind: 'back', to: h.from } : { kind: 'wait', atMs: h.until };
}
