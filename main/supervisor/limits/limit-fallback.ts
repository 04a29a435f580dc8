// The usage-limit policy's choice (DESIGN.md §5, "Hand-off"): at a new usage limit, whether the
// session waits for the reset or continues with another agent, from its own `onUsageLimit` or the
// daemon's default. Pure; runs in the supervisor's process.
import type { OnUsageLimit, ProfileName, SessionRecord } from '../../../common/session.js';
import { clockWords } from '../../../common/session-view.js';

/** What a session does at a limit when neither it nor the daemon says. */
export const DEFAULT_ON_USAGE_LIMIT: OnUsageLimit = 'wait';

/**
 * The profile a session at its limit continues with, or null to wait. The agent that hit the limit is
 * never its own fallback: a session already handed over waits for its fallback's reset.
 */
export function limitFallback(session: Pick<SessionRecord, 'onUsageLimit' | 'agent'>, daemonDefault: OnUsageLimit = DEFAULT_ON_USAGE_LIMIT): ProfileName | null {
  const policy = session.onUsageLimit ?? daemonDefault;
  if (!policy.startsWith('handoff:')) return null;
  const to = policy.slice('handoff:'.length) as ProfileName;
  return to === session.agent.profile ? null : to;
}

/** The reason a limit's hand-off gives, with the reset's time when known: `usage limit reached, resets 14:00`. */
export function limitHandoffReason(resetAt: number | null): string {
  return `usage limit reached${resetAt === null ? '' : `, resets ${clockWords(resetAt)}`}`;
}
