// Whether the machine is kept from idle sleep while agents work (DESIGN.md §6 "Keep awake"): held
// while any session's agent is working or Mori is working for it (verifying, resuming, starting),
// and for a grace period after the last one stops, so a pause between two turns does not let the
// machine doze off. Off unless the person turned it on. Pure: the daemon feeds it the sessions and
// the time, and runs its own timer for `releaseAt`.
import type { RuntimeState } from '../../common/events.js';
import type { AgentActivity } from '../../common/agent-activity.js';

/** Mori's own states that are work in progress for the person: a verification, a resume, a start. */
const MORI_WORKING = new Set<RuntimeState>(['starting', 'verifying', 'resuming']);

export interface AwakeState {
  holding: boolean;
  /** While holding with nothing working: when the hold ends (epoch ms). */
  releaseAt: number | null;
  /** How many sessions work now. */
  working: number;
}

export const NOT_HOLDING: AwakeState = { holding: false, releaseAt: null, working: 0 };

/** How many sessions are at work: their agent working, or Mori verifying, resuming or starting one. */
export function workingCount(sessions: readonly { state: RuntimeState; activity: AgentActivity }[]): number {
  return sessions.filter((s) => MORI_WORKING.has(s.state) || (s.state === 'running' && s.activity === 'working')).length;
}

/** The next state from the previous one, the sessions at work now, the time and the settings. */
export function awakeStep(prev: AwakeState, working: number, nowMs: number, s: { enabled: boolean; graceMs: number }): AwakeState {
  if (!s.enabled) return NOT_HOLDING;
  if (working > 0) return { holding: true, releaseAt: null, working };
  if (!prev.holding) return NOT_HOLDING;
  const releaseAt = prev.releaseAt ?? nowMs + s.graceMs;
  return nowMs >= releaseAt ? NOT_HOLDING : { holding: true, releaseAt, working: 0 };
}

/** What `mori ls` and the tray say while it holds: "keeping the machine awake (2 working)". */
export function awakeWords(a: AwakeState, clock: (ms: number) => string): string | null {
  if (!a.holding) return null;
  if (a.working > 0) return `keeping the machine awake (${a.working} working)`;
  return `keeping the machine awake until ${a.releaseAt === null ? 'now' : clock(a.releaseAt)} (nothing working)`;
}
