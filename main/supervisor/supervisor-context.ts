// What the parts of the supervisor share: its options, clocks, backends, the session store and the
// lifecycle moves, the event stream, and the few facts about the machine they all read (asleep, the
// last wake, shutting down). Built once by the Supervisor and handed to each part. Types and one
// small class; runs in the supervisor's process.
import type { SupervisorEvent } from '../../common/events.js';
import type { InterruptReason } from '../../common/session.js';
import type { TerminalSize } from '../../common/terminal.js';
import type { Env } from '../agents/profile.js';
import type { PowerClock, Scheduler } from '../power/clock.js';
import type { DirectBackend } from '../terminals/direct/direct-backend.js';
import type { TmuxBackend } from '../terminals/tmux/tmux-backend.js';
import type { RestartPolicyConfig } from './restart-policy.js';
import type { SessionRuntime } from './session-runtime.js';
import type { SessionStore } from './session-store.js';
import type { SessionTransitions } from './transitions.js';
import type { TypedInputOutcome, TypedInputPurpose } from './typed-input.js';

export interface SupervisorOptions {
  home?: string;
  /** The environment agents run with and profiles read (bin overrides, config dirs); default process.env. */
  env?: Env;
  direct?: DirectBackend;
  /** null: no tmux here (sessions that want it run direct). Default: a TmuxBackend on the private socket. */
  tmux?: TmuxBackend | null;
  clock?: PowerClock;
  scheduler?: Scheduler;
  random?: () => number;
  policy?: Partial<RestartPolicyConfig>;
  checkpointIntervalMs?: number;
  startStaggerMs?: number;
  /** Verify the environment before every resume (default true). */
  verify?: boolean;
  activity?: { readDelayMs?: number; settleMs?: number };
  /** A nudged agent still in error this long after is restarted (default STUCK_AFTER_WAKE_MS). */
  stuckAfterWakeMs?: number;
  size?: TerminalSize;
}

/** What an interruption that a resume ends looked like, for the log entry and the resume prompt. */
export interface ResumeContext {
  /** How long the session was away (asleep or offline), when known. */
  awayMs: number | null;
  /** What a verification already done for this resume found; null: verify now (unless verification is off). */
  checks: string | null;
  /** Aborts the verification (a new sleep or network loss): the session goes back to interrupted. */
  signal?: AbortSignal;
}

/** The machine as the supervisor knows it. */
export class MachineState {
  asleep = false;
  /** Awake ms of the last wake. */
  lastWakeAt: number | null = null;
  shuttingDown = false;
}

export interface SupervisorContext {
  readonly home: string;
  readonly env: Env;
  readonly options: SupervisorOptions;
  readonly clock: PowerClock;
  readonly scheduler: Scheduler;
  readonly random: () => number;
  readonly policy: RestartPolicyConfig;
  readonly direct: DirectBackend;
  readonly tmux: TmuxBackend | null;
  readonly store: SessionStore;
  readonly moves: SessionTransitions;
  readonly machine: MachineState;
  emit(e: SupervisorEvent): void;
  /** Resumes a session (the one resume path: crash, wake, network, reboot, a start). */
  resume(rt: SessionRuntime, reason: InterruptReason, context: ResumeContext | null): Promise<void>;
  /** Types text into the session's agent (the one typed-input path). */
  type(rt: SessionRuntime, text: string, purpose: TypedInputPurpose, enter?: boolean): Promise<TypedInputOutcome>;
}
