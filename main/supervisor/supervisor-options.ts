// The Supervisor's options (clocks, backends, timings, policy), what a resume was given
// (ResumeContext), and the few facts about the machine its parts read (asleep, the last wake,
// shutting down). Each part receives only the pieces it uses, at construction. Runs in the
// supervisor's process.
import type { SessionInfo } from '../../common/ipc.js';
import type { TerminalSize } from '../../common/terminal.js';
import type { Env } from '../agents/profile.js';
import type { PowerClock, Scheduler } from '../power/clock.js';
import type { DirectBackend } from '../terminals/direct/direct-backend.js';
import type { TmuxBackend } from '../terminals/tmux/tmux-backend.js';
import type { RestartPolicyConfig } from './exits/restart-policy.js';
import type { JitterSlot } from './limits/limit-plan.js';
import type { ContextUsageSource, ResumeDefaults } from './resume/resume-choice.js';

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
  /**
   * Activity reading. `hooksOnly`: the screen patterns and claude's status file are not read, so the
   * activity comes from the agents' hooks alone (tests that prove the hooks by themselves).
   */
  activity?: { readDelayMs?: number; settleMs?: number; hooksOnly?: boolean };
  /** A nudged agent still in error this long after is restarted (default STUCK_AFTER_WAKE_MS). */
  stuckAfterWakeMs?: number;
  size?: TerminalSize;
  /** The longest jitter after a usage limit's reset (default LIMIT_JITTER_MS; tests shorten it), and (tests only) its first or last slot instead of a random one. */
  usageLimit?: { jitterMs?: number; jitterSlot?: JitterSlot };
  /**
   * How relaunches take up the conversation (resume-choice.ts): the daemon's defaults (settings.json
   * `resume`; default DEFAULT_RESUME) and where a conversation's last context is read (default: never
   * known, so `auto` resumes by id whenever the agent's record exists).
   */
  resumePolicy?: { defaults?: ResumeDefaults; contextUsage?: ContextUsageSource };
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

/** The machine as the supervisor knows it; only the Supervisor changes it, the parts read it. */
export class MachineState {
  private sleeping = false;
  private wokeAt: number | null = null;
  private stopping = false;

  get asleep(): boolean {
    return this.sleeping;
  }

  /** Awake ms of the last wake. */
  get lastWakeAt(): number | null {
    return this.wokeAt;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** The machine goes to sleep (true) or woke (false) at awake ms `monoMs`. */
  setAsleep(asleep: boolean, monoMs: number): void {
    this.sleeping = asleep;
    if (!asleep) this.wokeAt = monoMs;
  }

  /** The supervisor stops; false when it already was. */
  beginShutdown(): boolean {
    if (this.stopping) return false;
    this.stopping = true;
    return true;
  }
}

/** What `Supervisor.start` brought up. */
export interface StartReport {
  sessions: SessionInfo[];
  /** Sessions that could not be loaded or are driven by another process. */
  skipped: { stateDir: string; message: string }[];
}
