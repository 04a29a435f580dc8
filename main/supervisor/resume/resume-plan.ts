// Pure decisions for interruptions and resumes (DESIGN.md §4, "Resume action"): which sessions an
// event interrupts, whether a resume goes ahead (and records an interruption, and verifies first), and
// what to do with each agent when the machine wakes or the network returns. No timers, no I/O. Runs in
// the supervisor's process.
import type { AgentActivity } from '../../../common/agent-activity.js';
import type { RuntimeState } from '../../../common/events.js';
import type { InterruptReason, SessionRecord } from '../../../common/session.js';
import type { Env } from '../../agents/profile.js';
import type { SessionRuntime } from '../session/session-runtime.js';

/** After a wake, a live agent still showing a connection error this long is restarted, not nudged again. */
export const STUCK_AFTER_WAKE_MS = 3 * 60_000;
/** How long a wake waits for the network before verifying anyway (checks on loopback need none). */
export const WAKE_NETWORK_WAIT_MS = 20_000;

export interface InterruptCandidate {
  id: string;
  state: RuntimeState;
  /** The agent's process is alive (its terminal has not exited). */
  alive: boolean;
  activity: AgentActivity;
  /** The profile talks to an API (claude, codex, gemini, aider); shell/custom may not. */
  needsNetwork: boolean;
  userStopped: boolean;
}

/** A session as a suspend, a wake or a network change sees it, with why it was interrupted. */
export type InterruptView = InterruptCandidate & { interruptedFor: InterruptReason | null };

/** A loaded session's view, read off its runtime (its profile says whether its agent needs the network). */
export function interruptView(rt: SessionRuntime, env: Env): InterruptView {
  const intent = rt.session.intent;
  return {
    id: rt.id,
    state: rt.state,
    alive: (rt.terminal?.pid ?? null) !== null,
    activity: rt.activity,
    needsNetwork: rt.profile.apiHosts(env).length > 0,
    userStopped: intent.kind === 'user-stopped',
    interruptedFor: intent.kind === 'interrupted' ? intent.reason : null,
  };
}

/** Sessions a suspend or a network loss interrupts: running ones (network: only those that need it). */
export function sessionsToInterrupt(sessions: readonly InterruptCandidate[], reason: 'sleep' | 'network'): string[] {
  return sessions
    .filter((s) => !s.userStopped && (s.state === 'running' || s.state === 'starting'))
    .filter((s) => reason === 'sleep' || s.needsNetwork)
    .map((s) => s.id);
}

/**
 * Sessions to resume after a wake or when the network returns: those interrupted for that reason; after
 * a wake also those at a usage limit (the supervisor resumes one only when its time passed in the sleep).
 */
export function sessionsToResume(
  sessions: readonly InterruptView[],
  reason: 'sleep' | 'network',
): string[] {
  return sessions
    .filter((s) => !s.userStopped && (s.state === 'interrupted' || (reason === 'sleep' && s.state === 'limited')))
    // interrupted(usage-limit): the limit's resume was cut short by a new sleep; the next wake finishes it.
    .filter((s) => s.state === 'limited' || s.interruptedFor === reason || (reason === 'sleep' && (s.interruptedFor === 'network' || s.interruptedFor === 'usage-limit')))
    .map((s) => s.id);
}

export type ResumeAction =
  | { kind: 'none'; why: string }
  | { kind: 'nudge'; why: string }
  | { kind: 'restart'; why: string }
  | { kind: 'relaunch'; why: string };

/**
 * What to do with one session on resume: alive and working → nothing; alive and in error or waiting
 * → type the nudge; alive but still in error long after the wake → restart with the resume command;
 * dead → relaunch (the launch plan picks resume-by-id or fresh).
 */
export function decideResumeAction(s: InterruptCandidate, msSinceWake: number, alreadyNudged: boolean, stuckAfterMs = STUCK_AFTER_WAKE_MS): ResumeAction {
  if (!s.alive) return { kind: 'relaunch', why: 'agent not running' };
  if (s.activity === 'working') return { kind: 'none', why: 'agent working' };
  if (s.activity === 'error' && (alreadyNudged || msSinceWake >= stuckAfterMs)) {
    return { kind: 'restart', why: 'agent stuck on an error after the wake' };
  }
  if (s.activity === 'error' || s.activity === 'waiting') return { kind: 'nudge', why: `agent ${s.activity}` };
  return { kind: 'none', why: `agent ${s.activity}` };
}

/** What a resume knows of a session before it does anything. */
export interface ResumeStart {
  /** The person asked (mori start, the UI): a session they stopped resumes too. */
  asked: boolean;
  /** A stop the person asked for is under way. */
  stopping: boolean;
  intent: SessionRecord['intent']['kind'];
  /** The agent's terminal is still there. */
  agentRunning: boolean;
  /** Verification before a resume is on (SupervisorOptions.verify). */
  verifyEnabled: boolean;
  /** A verification already done for this resume (ResumeContext.checks). */
  checksGiven: boolean;
}

export type ResumePlan = { kind: 'skip' } | { kind: 'go'; recordInterruption: boolean; verify: boolean };

/**
 * Whether a resume goes ahead: never for a session the person stopped unless they asked. A dead agent
 * whose stop was not recorded yet (Mori restarted, rebooted) is first recorded as interrupted; one the
 * person stopped or that finished, and is now started again, was not interrupted.
 */
export function planResume(s: ResumeStart): ResumePlan {
  if (!s.asked && (s.stopping || s.intent === 'user-stopped')) return { kind: 'skip' };
  const settled = s.intent === 'interrupted' || s.intent === 'user-stopped' || s.intent === 'finished' || s.intent === 'attention';
  return { kind: 'go', recordInterruption: !s.agentRunning && !settled, verify: s.verifyEnabled && !s.checksGiven };
}
