// The Supervisor's options (clocks, backends, timings, policy) and what its start reports. Each part
// receives only the pieces it uses, at construction. Runs in the supervisor's process.
import type { LiveSession } from '../../common/ipc.js';
import type { OnUsageLimit } from '../../common/session.js';
import type { SandboxSettings } from '../../common/daemon-settings.js';
import type { TerminalSize } from '../../common/terminal.js';
import type { Env } from '../agents/profile.js';
import type { PowerClock, Scheduler } from '../power/clock.js';
import type { DirectBackend } from '../terminals/direct/direct-backend.js';
import type { TmuxBackend } from '../terminals/tmux/tmux-backend.js';
import type { ActivityReading } from './launch/agent-launcher.js';
import type { RestartPolicyConfig } from './session/restart-policy.js';
import type { JitterSlot } from './limits/limit-plan.js';
import type { ContextUsageSource, ResumeDefaults } from './resume/resume-choice.js';

export type { ResumeContext } from './session/resume-context.js';

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
  /** Activity reading (agent-launcher.ts); `hooksOnly` in tests that prove the hooks by themselves. */
  activity?: ActivityReading;
  /** A nudged agent still in error this long after is restarted (default STUCK_AFTER_WAKE_MS). */
  stuckAfterWakeMs?: number;
  /** The pause at its API error before each nudge of an agent left there (default API_ERROR_NUDGE_MS, resume/error-watch.ts); then attention. */
  apiErrorNudgeMs?: readonly number[];
  size?: TerminalSize;
  /** The longest jitter after a usage limit's reset (default LIMIT_JITTER_MS; tests shorten it), and (tests only) its first or last slot instead of a random one. */
  usageLimit?: { jitterMs?: number; jitterSlot?: JitterSlot };
  /**
   * How relaunches take up the conversation (resume-choice.ts): the daemon's defaults (settings.json
   * `resume`; default DEFAULT_RESUME) and where a conversation's last context is read (default: never
   * known, so `auto` resumes by id whenever the agent's record exists).
   */
  resumePolicy?: { defaults?: ResumeDefaults; contextUsage?: ContextUsageSource };
  /** What a session that names no policy of its own does at a usage limit (settings.json `onUsageLimit`; default wait). */
  onUsageLimit?: OnUsageLimit;
  /** The paths every sandboxed session binds (settings.json `sandbox`); default none. */
  sandbox?: Pick<SandboxSettings, 'readWrite' | 'readOnly' | 'allowedHosts'>;
}

/** What `Supervisor.start` brought up. */
export interface StartReport {
  sessions: LiveSession[];
  /** Sessions that could not be loaded or are driven by another process. */
  skipped: { stateDir: string; message: string }[];
}
