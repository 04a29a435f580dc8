// One supervised session in memory: what it is (id, name, state dir, profile), where it stands in
// the lifecycle (`state`, moved only through SessionTransitions), its terminal and activity while
// the agent runs, and its timers. The stored truth (intent, exits, crashes) is `session`, the last
// session.json read or written; its paths are checked against the state dir's place before use
// (project-dir.ts). Runs in the supervisor's process.
import path from 'node:path';
import type { AgentActivity } from '../../common/agent-activity.js';
import type { LaunchKind, RuntimeState } from '../../common/events.js';
import type { SessionFile } from '../../common/session.js';
import type { AgentProfile, LaunchSpec } from '../agents/profile.js';
import type { FailedResume } from '../agents/profiles.js';
import type { Cancel } from '../power/clock.js';
import { projectDirOf } from '../state/project-dir.js';
import type { Terminal } from '../terminals/terminal.js';
import type { ActivityMonitor } from './activity-monitor.js';
import type { RestartState } from './restart-policy.js';

/** What a session's timers are for: a restart in backoff, checkpoints, a stuck/retrying agent, learning an agent's id. */
type TimerKind = 'retry' | 'checkpoint' | 'stuck' | 'id-watch';

/** The session's timers by purpose; each is cleared before it is set again, all at once on detach. */
export class SessionTimers {
  private readonly timers = new Map<TimerKind, Cancel>();

  set(kind: TimerKind, cancel: Cancel): void {
    this.clear(kind);
    this.timers.set(kind, cancel);
  }

  has(kind: TimerKind): boolean {
    return this.timers.has(kind);
  }

  /** Forgets a timer that fired (without cancelling anything). */
  fired(kind: TimerKind): void {
    this.timers.delete(kind);
  }

  clear(...kinds: (TimerKind)[]): void {
    for (const kind of kinds.length > 0 ? kinds : [...this.timers.keys()]) {
      this.timers.get(kind)?.();
      this.timers.delete(kind);
    }
  }
}

/** What the running agent is: its terminal, how it was launched, and what watches it. */
export interface AgentRun {
  terminal: Terminal;
  monitor: ActivityMonitor | null;
  launch: LaunchKind;
  /** The command it was launched with; null for an adopted tmux session. */
  spec: LaunchSpec | null;
  /** Awake ms at launch: how long it stayed up decides what its exit means. */
  startedAt: number;
  /** The first prompt, typed once the agent first waits (agents that take none on argv). */
  pendingPrompt: string | null;
  /** Monotonic ms of the last nudge after an interruption; a second one becomes a restart. */
  nudgedAt: number | null;
}

export class SessionRuntime {
  state: RuntimeState;
  activity: AgentActivity = 'unknown';
  /** The agent while it runs; null while it does not. */
  run: AgentRun | null = null;
  restart: RestartState;
  failedResume: FailedResume | null;
  /** The person asked for a stop that has not completed yet (the agent's exit is theirs). */
  stopping = false;
  /** Wall ms of the latest launch of an agent that picks its own id (codex) while that id is not known yet. */
  idSince: number | null = null;
  /** Epoch ms of the scheduled restart while in backoff. */
  nextAttemptAt: number | null = null;
  readonly timers = new SessionTimers();
  /** Views told when the terminal goes away. */
  readonly viewEnders = new Set<(reason: string) => void>();
  /**
   * Bumped whenever someone takes charge of the session (a resume, a stop, an exit, shutdown): an
   * async step that began before sees it changed and gives up.
   */
  generation = 0;
  /**
   * The project: where the state dir lies (project-dir.ts), never session.json's `projectDir`. When
   * it cannot be resolved, the lexical parent of `.mori`; a launch then fails on sessionPaths().
   */
  readonly projectDir: string;

  constructor(
    readonly stateDir: string,
    public session: SessionFile,
    readonly profile: AgentProfile,
    restart: RestartState,
    readonly releaseLock: () => void,
  ) {
    const k = session.intent.kind;
    this.state = k === 'user-stopped' ? 'stopped' : k === 'finished' ? 'finished' : k === 'attention' ? 'attention' : 'idle';
    this.restart = restart;
    this.failedResume = session.failedResume;
    const project = projectDirOf(stateDir);
    this.projectDir = project.ok ? project.value : path.dirname(path.dirname(path.resolve(stateDir)));
  }

  get id(): string {
    return this.session.id;
  }

  get name(): string {
    return this.session.name;
  }

  get terminal(): Terminal | null {
    return this.run?.terminal ?? null;
  }
}
