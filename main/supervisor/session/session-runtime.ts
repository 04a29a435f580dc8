// One supervised session in memory: what it is (id, name, state dir, profile), where it stands in
// the lifecycle (`state`, moved only through SessionTransitions), its terminal and activity while
// the agent runs, and its timers. The stored truth (intent, exits, crashes) is `session`, the last
// session.json read or written; its paths are checked against the state dir's place before use
// (project-dir.ts). Only this file assigns its fields; the other parts change them through its named
// operations (test/lint/runtime-owner.test.ts). Runs in the supervisor's process.
import path from 'node:path';
import type { AgentActivity } from '../../../common/agent-activity.js';
import type { LaunchKind, RuntimeState } from '../../../common/events.js';
import type { SessionRecord } from '../../../common/session.js';
import type { AgentProfile, LaunchSpec } from '../../agents/profile.js';
import type { FailedResume } from '../../agents/profiles.js';
import type { Cancel } from '../../power/clock.js';
import { projectDirOf } from '../../state/project-dir.js';
import type { Terminal } from '../../terminals/terminal.js';
import type { RestartState } from './restart-policy.js';

/**
 * What a session's timers are for: a restart in backoff, checkpoints, a stuck/retrying agent after a
 * resume, learning an agent's id, the resume after a usage limit, the way back to the first agent at
 * its reset, the next nudge of an agent left at its API error (resume/error-watch.ts).
 */
type TimerKind = 'retry' | 'checkpoint' | 'stuck' | 'id-watch' | 'limit' | 'hand-back' | 'api-error';

/** The session's timers by purpose; each is cleared before it is set again, all at once on detach. */

/** The words of an attention announced before this Mori started: its message was said in the work log then. */
export const SAID_BEFORE = 'announced before Mori last started; its words are in the work log';
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

/** What watches a run's activity (signals/activity-monitor.ts): stopped when the run ends. */
export interface RunWatch {
  dispose(): void;
}

/** What the running agent is: its terminal, how it was launched, and what watches it. */
export class AgentRun {
  private watcher: RunWatch | null = null;
  private prompt: string | null;
  private nudged: number | null = null;

  constructor(
    readonly terminal: Terminal,
    readonly launch: LaunchKind,
    /** The command it was launched with; null for an adopted tmux session. */
    readonly spec: LaunchSpec | null,
    /** Awake ms at launch: how long it stayed up decides what its exit means. */
    readonly startedAt: number,
  ) {
    this.prompt = spec?.typePrompt ?? null;
  }

  get monitor(): RunWatch | null {
    return this.watcher;
  }

  /** Monotonic ms of the last nudge after an interruption; a second one becomes a restart. */
  get nudgedAt(): number | null {
    return this.nudged;
  }

  /** The first prompt, typed once the agent first waits (agents that take none on argv). */
  get pendingPrompt(): string | null {
    return this.prompt;
  }

  /** The activity monitor that watches this agent; disposed when the run ends. */
  watchWith(monitor: RunWatch): void {
    this.watcher = monitor;
  }

  /** The first prompt, handed out once: null after the first call. */
  takePendingPrompt(): string | null {
    const prompt = this.prompt;
    this.prompt = null;
    return prompt;
  }

  markNudged(monoMs: number): void {
    this.nudged = monoMs;
  }

  /** The agent made progress after its nudge: a later one is a first nudge again. */
  clearNudge(): void {
    this.nudged = null;
  }
}

/**
 * The session's runtime state. Only this class assigns its fields: the other parts read them and
 * change them through the named operations below (test/lint/runtime-owner.test.ts holds that).
 */
export class SessionRuntime {
  private current: RuntimeState;
  private agentActivity: AgentActivity = 'unknown';
  private agentRun: AgentRun | null = null;
  private restartState: RestartState;
  private failed: FailedResume | null;
  private stopAsked = false;
  private learningSince: number | null = null;
  private agentIdNotedAt = 0;
  private retryAt: number | null = null;
  private taken = 0;
  private file: SessionRecord;
  private agentProfile: AgentProfile;
  readonly timers = new SessionTimers();
  /** Views told when the terminal goes away. */
  readonly viewEnders = new Set<(reason: string) => void>();
  /**
   * The project: where the state dir lies (project-dir.ts), never session.json's `projectDir`. When
   * it cannot be resolved, the lexical parent of `.mori`; a launch then fails on sessionPaths().
   */
  readonly projectDir: string;

  constructor(
    readonly stateDir: string,
    session: SessionRecord,
    profile: AgentProfile,
    restart: RestartState,
    readonly releaseLock: () => void,
  ) {
    const k = session.intent.kind;
    this.file = session;
    this.agentProfile = profile;
    this.current = k === 'user-stopped' ? 'stopped' : k === 'finished' ? 'finished' : k === 'attention' ? 'attention' : 'idle';
    this.restartState = restart;
    this.failed = session.failedResume;
    // Loaded in attention (an earlier Mori announced it): the reason is in the record; its words were
    // said then, in the work log, so a listing still says why rather than nothing.
    if (session.intent.kind === 'attention') this.attentionWhy = { reason: session.intent.reason, message: SAID_BEFORE };
    const project = projectDirOf(stateDir);
    this.projectDir = project.ok ? project.value : path.dirname(path.dirname(path.resolve(stateDir)));
  }

  get id(): string {
    return this.file.id;
  }

  get name(): string {
    return this.file.name;
  }

  /** The agent profile the session runs; another only after a hand-off (handOver). */
  get profile(): AgentProfile {
    return this.agentProfile;
  }

  /** The last session.json read or written: the stored truth (intent, exits, crashes). */
  get session(): SessionRecord {
    return this.file;
  }

  /** Where the session stands in the lifecycle; moved only through SessionTransitions. */
  get state(): RuntimeState {
    return this.current;
  }

  get activity(): AgentActivity {
    return this.agentActivity;
  }

  /** The agent while it runs; null while it does not. */
  get run(): AgentRun | null {
    return this.agentRun;
  }

  get terminal(): Terminal | null {
    return this.agentRun?.terminal ?? null;
  }

  get restart(): RestartState {
    return this.restartState;
  }

  get failedResume(): FailedResume | null {
    return this.failed;
  }

  /** The person asked for a stop that has not completed yet (the agent's exit is theirs). */
  get stopping(): boolean {
    return this.stopAsked;
  }

  /** Wall ms of the latest launch of an agent that picks its own id (codex) while that id is not known yet. */
  get idSince(): number | null {
    return this.learningSince;
  }

  /**
   * Wall ms when a signal of the running agent (a hook, its status file) last changed its recorded
   * conversation id in this process; 0 when none did. A status file written before it is older news.
   */
  get agentIdChangedAt(): number {
    return this.agentIdNotedAt;
  }

  /** A signal of the agent's changed its recorded conversation id at `wallMs`. */
  agentIdChanged(wallMs: number): void {
    this.agentIdNotedAt = wallMs;
  }

  /** Epoch ms of the scheduled restart while in backoff. */
  get nextAttemptAt(): number | null {
    return this.retryAt;
  }

  /**
   * Bumped whenever someone takes charge of the session (a resume, a stop, an exit, shutdown): an
   * async step that began before sees it changed and gives up.
   */
  get generation(): number {
    return this.taken;
  }

  // ---------------------------------------------------------------- operations

  /** Someone takes charge (a resume, a launch, a stop, an exit, shutdown); returns the new generation. */
  takeCharge(): number {
    return ++this.taken;
  }

  /**
   * Why the session waits for the person, as last announced (its install command, the file and field
   * at fault), while it is in `attention`: a window opened after the announcement still shows it.
   */
  get attentionMessage(): { reason: string; message: string } | null {
    return this.attentionWhy;
  }
  private attentionWhy: { reason: string; message: string } | null = null;

  /** The permission mode the agent's record last said (its profile's permissionMode), or null: unknown. */
  get permissionMode(): string | null {
    return this.mode;
  }
  private mode: string | null = null;

  /** What the agent's record says its permission mode is now. */
  notePermissionMode(mode: string): void {
    this.mode = mode;
  }

  /** What the latest `session.attention` said, kept while the session stays in `attention`. */
  noteAttention(reason: string, message: string): void {
    this.attentionWhy = { reason, message };
  }

  /** The lifecycle moved (SessionTransitions alone calls this). */
  enter(state: RuntimeState): void {
    this.current = state;
    if (state !== 'attention') this.attentionWhy = null;
  }

  /** session.json as last read or written (the store), or a part of it another reader refreshed. */
  setSession(session: SessionRecord): void {
    this.file = session;
  }

  /** The agent runs: its activity is not known yet, and no restart is pending. */
  markLaunched(run: AgentRun): void {
    this.agentRun = run;
    this.agentActivity = 'unknown';
    this.retryAt = null;
  }

  setActivity(activity: AgentActivity): void {
    this.agentActivity = activity;
  }

  /** The agent is let go of (it exited, or is being restarted): its monitor stops watching. */
  endRun(): void {
    this.agentRun?.monitor?.dispose();
    this.agentRun = null;
  }

  /** The person asked for a stop; the agent's coming exit is theirs. */
  markStopping(): void {
    this.stopAsked = true;
  }

  /** A stop the person asked for completed. */
  stopCompleted(): void {
    this.stopAsked = false;
  }

  /** What an exit left of the restart policy's state, and the resume that failed if one did. */
  recordExit(restart: RestartState, failedResume: FailedResume | null = this.failed): void {
    this.restartState = restart;
    this.failed = failedResume;
  }

  /** The person starts the session afresh: no stop pending, a clean restart history, no failed resume. */
  resetForStart(restart: RestartState): void {
    this.stopAsked = false;
    this.restartState = restart;
    this.failed = null;
  }

  /** A restart is scheduled for `wallMs` (backoff). */
  scheduleRetry(wallMs: number): void {
    this.retryAt = wallMs;
  }

  /** No restart is pending any more. */
  cancelRetry(): void {
    this.retryAt = null;
  }

  /** The session was handed to another agent (resume/handoff.ts): its profile, and no failed resume of the old one. */
  handOver(profile: AgentProfile): void {
    this.agentProfile = profile;
    this.failed = null;
  }

  /** An agent that picks its own id was launched at `wallMs`; null: its id is known (or not sought). */
  learnIdSince(wallMs: number | null): void {
    this.learningSince = wallMs;
  }
}
