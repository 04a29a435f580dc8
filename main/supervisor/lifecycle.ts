// The session lifecycle of DESIGN.md §4 as an explicit state machine plus the pure decisions the
// supervisor makes at each step: what an exit means, which sessions `mori up` starts, why a session
// that was running is down after a restart of Mori, and how to (re)launch it. No timers, no I/O:
// every input is passed in. Runs in the supervisor's process.
import type { LaunchKind, RuntimeState } from '../../common/events.js';
import type { Intent, InterruptReason } from '../../common/session.js';
import type { TerminalExit } from '../../common/terminal.js';
import { exitedCleanly } from '../../common/terminal.js';
import { onCrash, type RestartPolicyConfig, type RestartState } from './restart-policy.js';

/** Allowed transitions; anything else is a bug in the supervisor and throws. */
export const TRANSITIONS: Readonly<Record<RuntimeState, readonly RuntimeState[]>> = {
  idle: ['starting', 'verifying', 'resuming', 'stopped', 'interrupted', 'attention'],
  starting: ['running', 'interrupted', 'backoff', 'attention', 'stopped', 'finished'],
  running: ['interrupted', 'backoff', 'attention', 'stopped', 'finished', 'resuming'],
  interrupted: ['verifying', 'resuming', 'backoff', 'stopped', 'attention', 'starting'],
  backoff: ['verifying', 'resuming', 'stopped', 'interrupted', 'starting'],
  verifying: ['resuming', 'stopped', 'interrupted', 'attention'],
  resuming: ['running', 'interrupted', 'backoff', 'attention', 'stopped', 'finished'],
  attention: ['starting', 'verifying', 'resuming', 'stopped'],
  stopped: ['starting', 'verifying', 'resuming', 'attention'],
  finished: ['starting', 'verifying', 'resuming', 'stopped', 'attention'],
};

export function canTransition(from: RuntimeState, to: RuntimeState): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}

/**
 * A resume that dies this soon (awake ms) with a failure status did not take: the agent could not
 * load its session. Agents that resume print their error and exit within a few seconds.
 */
export const RESUME_FAILURE_WINDOW_MS = 15_000;

export interface ExitInput {
  exit: TerminalExit;
  /** The person asked for the stop (mori stop, the UI). */
  userStop: boolean;
  /** The supervisor itself is shutting down and ended the agent (direct backend). */
  shuttingDown: boolean;
  /** The exit came during or right after a sleep (DESIGN.md §4: not a crash). */
  nearSleep: boolean;
  /** How this run was launched and how long it lasted (awake ms). */
  launch: LaunchKind;
  uptimeMs: number;
  restart: RestartState;
  /** Awake time now. */
  now: number;
  random: number;
  policy: RestartPolicyConfig;
}

export type ExitDecision =
  | { kind: 'stopped'; intent: Intent }
  | { kind: 'supervisor-stopped'; intent: Intent }
  | { kind: 'finished'; intent: Intent }
  | { kind: 'restart'; intent: Intent; reason: InterruptReason; delayMs: number; countsAsCrash: boolean; resumeFailed: boolean; restart: RestartState }
  | { kind: 'attention'; intent: Intent; reason: string; message: string; restart: RestartState };

/** What an agent's exit means and what happens next. */
export function decideOnExit(input: ExitInput): ExitDecision {
  if (input.userStop) return { kind: 'stopped', intent: { kind: 'user-stopped' } };
  if (input.shuttingDown) return { kind: 'supervisor-stopped', intent: { kind: 'interrupted', reason: 'supervisor-stopped' } };
  if (exitedCleanly(input.exit)) return { kind: 'finished', intent: { kind: 'finished' } };
  if (input.nearSleep) {
    return {
      kind: 'restart',
      intent: { kind: 'interrupted', reason: 'sleep' },
      reason: 'sleep',
      delayMs: input.policy.baseDelayMs,
      countsAsCrash: false,
      resumeFailed: false,
      restart: input.restart,
    };
  }
  const resumeFailed = input.launch === 'resume' && input.uptimeMs < RESUME_FAILURE_WINDOW_MS;
  const { state, decision } = onCrash(input.restart, input.now, input.uptimeMs, input.random, input.policy);
  if (decision.kind === 'crash-loop') {
    const minutes = Math.round(decision.windowMs / 60_000);
    return {
      kind: 'attention',
      intent: { kind: 'attention', reason: 'crash-loop' },
      reason: 'crash-loop',
      message: `the agent crashed ${decision.crashes} times within ${minutes} minutes; not restarting it`,
      restart: state,
    };
  }
  return { kind: 'restart', intent: { kind: 'interrupted', reason: 'crash' }, reason: 'crash', delayMs: decision.delayMs, countsAsCrash: true, resumeFailed, restart: state };
}

/** Which registered sessions `mori up` starts when none are named: those meant to run (DESIGN.md §9). */
export function meantToRun(session: { intent: Intent; autoResume: boolean }): boolean {
  const k = session.intent.kind;
  if (k === 'new') return true;
  return session.autoResume && (k === 'running' || k === 'interrupted');
}

/** Why a session that was running is down now that Mori starts: the boot id tells a reboot from an app exit. */
export function startupInterruption(lastBootId: string | null, currentBootId: string): InterruptReason {
  return lastBootId !== null && lastBootId !== currentBootId ? 'reboot' : 'app-exit';
}

export type StartAction =
  /** Its tmux session is still alive: adopt it. */
  | { kind: 'reattach' }
  /** Never started: a new agent session with the first prompt. */
  | { kind: 'new' }
  /** It ran before: relaunch (resume when the agent's record exists, else fresh; see planRelaunch). */
  | { kind: 'relaunch'; reason: InterruptReason };

/** How to bring a session up when the supervisor starts or is asked to start it. */
export function startAction(input: { intent: Intent; tmuxAlive: boolean; hasRun: boolean; lastBootId: string | null; currentBootId: string }): StartAction {
  if (input.tmuxAlive) return { kind: 'reattach' };
  if (input.intent.kind === 'new' && !input.hasRun) return { kind: 'new' };
  if (input.intent.kind === 'interrupted') return { kind: 'relaunch', reason: input.intent.reason };
  return { kind: 'relaunch', reason: startupInterruption(input.lastBootId, input.currentBootId) };
}
