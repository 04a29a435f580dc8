// The session lifecycle of DESIGN.md §4 as an explicit state machine plus the pure decisions the
// supervisor makes at each step: what an exit means, which sessions `mori up` starts, why a session
// that was running is down after a restart of Mori, and how to (re)launch it. No timers, no I/O:
// every input is passed in. Runs in the supervisor's process.
import type { LaunchKind, RuntimeState } from '../../../common/events.js';
import type { Intent, InterruptReason } from '../../../common/session.js';
import type { TerminalExit } from '../../../common/terminal.js';
import { exitedCleanly } from '../../../common/terminal.js';
import { onCrash, type RestartPolicyConfig, type RestartState } from './restart-policy.js';

/**
 * What happens to a session, as the lifecycle hears it. Facts about the agent (`ran`, `finished`,
 * `crashed`) and decisions of the supervisor or the person (the rest).
 */
export const LIFECYCLE_EVENTS = [
  /** A new launch begins (a new agent session, or a start the person asked for). */
  'launch',
  /** The environment is being verified before a resume. */
  'verify',
  /** The resume action is being taken (a relaunch, a nudge, nothing to do). */
  'resume',
  /** The agent is up: spawned, re-attached, or found alive and left running. */
  'ran',
  /** Sleep, network loss, a stale start: the agent's work stopped for a reason outside it. */
  'interrupt',
  /** The agent exited non-zero (or by signal) and a restart is scheduled. */
  'crashed',
  /** The agent exited 0. */
  'finished',
  /** The person stopped it. */
  'stop',
  /** The agent hit its usage limit: it waits for the reset, then one resume (DESIGN.md §4). */
  'limit',
  /** Something only a person can resolve (crash loop, missing program, untrusted command, unwritable state). */
  'attention',
] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/** Every event, and where it leads from a state where the agent may be alive (its exits can arrive). */
const FROM_LIVE: Readonly<Record<LifecycleEvent, RuntimeState | null>> = {
  launch: 'starting',
  verify: 'verifying',
  resume: 'resuming',
  ran: 'running',
  interrupt: 'interrupted',
  crashed: 'backoff',
  finished: 'finished',
  stop: 'stopped',
  attention: 'attention',
  limit: 'limited',
};

/** From a state with no agent: nothing can exit; everything the supervisor or the person does is open. */
const FROM_DOWN: Readonly<Record<LifecycleEvent, RuntimeState | null>> = {
  ...FROM_LIVE,
  ran: 'running',
  crashed: null,
  finished: null,
};

/**
 * The whole state machine: every (state, event) pair has an answer, the next state or null for
 * impossible. An impossible pair is a supervisor bug: it is reported (attention, reason `internal`),
 * never thrown into a pty or socket callback.
 */
export const LIFECYCLE: Readonly<Record<RuntimeState, Readonly<Record<LifecycleEvent, RuntimeState | null>>>> = {
  // Loaded, not started yet: a start is launch, verify or resume. The only exit it hears is one that
  // happened while Mori was down (a dead tmux pane found at start).
  idle: { ...FROM_DOWN, finished: 'finished', crashed: 'backoff' },
  starting: { ...FROM_LIVE },
  // A running agent is not launched again; it is verified when resumed after an interruption.
  running: { ...FROM_LIVE, launch: null },
  // Interrupted with its agent possibly still alive (network, sleep): every exit is possible.
  interrupted: { ...FROM_LIVE },
  // Waiting for a restart: no agent. A failing launch plan goes to attention from here.
  backoff: { ...FROM_DOWN, ran: null },
  // Verifying a live or dead agent before a resume; a start asked for meanwhile restarts it.
  verifying: { ...FROM_LIVE },
  resuming: { ...FROM_LIVE },
  // At its usage limit, the agent at its prompt or not running: it may exit (it stays limited, see
  // exit-handler.ts); the planned resume verifies and resumes; a refined limit is limited again.
  limited: { ...FROM_LIVE },
  // Attention may come while the agent still runs (its state files cannot be written): it can exit.
  attention: { ...FROM_LIVE },
  stopped: { ...FROM_DOWN, ran: null, interrupt: null, limit: null },
  finished: { ...FROM_DOWN, ran: null, interrupt: null, limit: null },
};

export type Step = { ok: true; to: RuntimeState } | { ok: false; from: RuntimeState; event: LifecycleEvent };

/** Where `event` leads from `from`; never throws. */
export function nextState(from: RuntimeState, event: LifecycleEvent): Step {
  const to = LIFECYCLE[from][event];
  return to === null ? { ok: false, from, event } : { ok: true, to };
}

/**
 * A resume that dies this soon (awake ms) with a failure status did not take: the agent could not
 * load its session. Agents that resume print their error and exit within a few seconds.
 */
export const RESUME_FAILURE_WINDOW_MS = 15_000;

/**
 * Signals another process sends (a kill, a hang-up, the OOM killer's SIGKILL): an agent ended by one
 * did not fail to load its session, so its next start still resumes by id — a fresh start would drop
 * its conversation for something it did not do. A fault of its own (SIGSEGV, SIGABRT) still counts.
 */
const SENT_SIGNALS = new Set(['SIGKILL', 'SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT']);

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
  const resumeFailed = input.launch === 'resume' && input.uptimeMs < RESUME_FAILURE_WINDOW_MS && !(input.exit.signal !== null && SENT_SIGNALS.has(input.exit.signal));
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
  | { kind: 'relaunch'; reason: InterruptReason }
  /** Its tmux pane is dead (remain-on-exit kept the status): the agent exited while Mori was down. */
  | { kind: 'exited-while-down'; exit: TerminalExit };

/** How to bring a session up when the supervisor starts or is asked to start it. */
export function startAction(input: {
  intent: Intent;
  tmuxAlive: boolean;
  /** The exit status of its dead tmux pane, when there is one. */
  tmuxExit?: TerminalExit | null;
  hasRun: boolean;
  lastBootId: string | null;
  currentBootId: string;
}): StartAction {
  if (input.tmuxAlive) return { kind: 'reattach' };
  if (input.tmuxExit) return { kind: 'exited-while-down', exit: input.tmuxExit };
  if (input.intent.kind === 'new' && !input.hasRun) return { kind: 'new' };
  if (input.intent.kind === 'interrupted') return { kind: 'relaunch', reason: input.intent.reason };
  // Stopped, finished or waiting for attention: only the person's start brings it back, and says so.
  if (input.intent.kind === 'user-stopped' || input.intent.kind === 'finished' || input.intent.kind === 'attention') return { kind: 'relaunch', reason: 'asked' };
  return { kind: 'relaunch', reason: startupInterruption(input.lastBootId, input.currentBootId) };
}
