// The Supervisor (DESIGN.md §1, §4): the one object that owns every session of this Mori home.
// It brings sessions up (new, resumed, or re-attached tmux sessions), reacts to exits through the
// pure lifecycle decisions, restarts with backoff, watches activity, writes checkpoints, intent and
// work-log entries, and emits the typed events of common/events.ts. It is the thin effects shell
// around lifecycle.ts and restart-policy.ts; clock, timers and randomness are injectable.
// The Electron main process and `mori up` both run it.
import path from 'node:path';
import type { AgentActivity } from '../../common/agent-activity.js';
import type { LaunchKind, RuntimeState, SupervisorEvent } from '../../common/events.js';
import type { SessionInfo } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import type { InterruptReason, SessionFile } from '../../common/session.js';
import type { TerminalExit, TerminalSize } from '../../common/terminal.js';
import { activityFromClaudeStatus, findClaudeStatus } from '../agents/claude-session-status.js';
import type { AgentProfile, Env, LaunchSpec } from '../agents/profile.js';
import { getProfile, type FailedResume } from '../agents/profiles.js';
import { verifySession } from '../checks/verify-session.js';
import { systemClock, systemScheduler, type Cancel, type PowerClock, type Scheduler } from '../power/clock.js';
import { bootId } from '../state/boot-id.js';
import { moriHome } from '../state/mori-home.js';
import { tryLock } from '../state/pid-lock.js';
import { ensureHome, readRegistry } from '../state/registry.js';
import { resolveSession } from '../state/resolve-session.js';
import { readSessionFile, updateSessionFile } from '../state/session-file.js';
import { SESSION_LOCK } from '../state/session-summary.js';
import { TRANSCRIPT_DIR } from '../state/state-dir.js';
import { appendEntry } from '../state/work-log.js';
import { DirectBackend } from '../terminals/direct-backend.js';
import type { Attachment, Terminal, TerminalBackend, TerminalView } from '../terminals/terminal.js';
import { TmuxBackend, tmuxSessionName } from '../terminals/tmux-backend.js';
import { ActivityMonitor } from './activity-monitor.js';
import { CHECKPOINT_INTERVAL_MS, writeCheckpoint } from './checkpoint.js';
import { describeLaunch, planNewLaunch, planRelaunchLaunch, type PlannedLaunch } from './launch-plan.js';
import { canTransition, decideOnExit, meantToRun, startAction, type StartAction } from './lifecycle.js';
import { REASON_WORDS } from './interrupt-words.js';
import { formatDuration } from './resume-prompt.js';
import { decideResumeAction, STUCK_AFTER_WAKE_MS } from './wake-plan.js';
import { DEFAULT_RESTART_POLICY, initialRestartState, type RestartPolicyConfig, type RestartState } from './restart-policy.js';

/** The lock that keeps a second supervisor (another `mori up`, the app) off this Mori home. */
export const SUPERVISOR_LOCK = 'supervisor.lock';
/** Sessions brought up at start go one at a time this far apart, never all at once (DESIGN.md §4). */
export const START_STAGGER_MS = 2_000;
/** An exit this soon after a wake (awake ms) is the sleep's doing, not a crash (DESIGN.md §4). */
export const NEAR_SLEEP_MS = 30_000;
/** The size a terminal starts at before any view says otherwise: a common laptop terminal. */
export const DEFAULT_SIZE: TerminalSize = { cols: 120, rows: 40 };
/** Restart times kept in session.json: enough to see a crash loop, bounded. */
const RESTART_HISTORY_KEEP = 20;


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
  /** Verify the environment before every relaunch (default true). */
  verify?: boolean;
  activity?: { readDelayMs?: number; settleMs?: number };
  /** A nudged agent still in error this long after is restarted (default STUCK_AFTER_WAKE_MS). */
  stuckAfterWakeMs?: number;
  size?: TerminalSize;
}

interface Runtime {
  id: string;
  name: string;
  stateDir: string;
  session: SessionFile;
  profile: AgentProfile;
  state: RuntimeState;
  terminal: Terminal | null;
  monitor: ActivityMonitor | null;
  activity: AgentActivity;
  launch: LaunchKind;
  spec: LaunchSpec | null;
  startedAt: number;
  restart: RestartState;
  failedResume: FailedResume | null;
  userStop: boolean;
  retryTimer: Cancel | null;
  checkpointTimer: Cancel | null;
  nextAttemptAt: number | null;
  pendingTypePrompt: string | null;
  viewEnders: Set<(reason: string) => void>;
  releaseLock: () => void;
  /** Bumped on every launch and stop: a stale async step sees it changed and gives up. */
  generation: number;
  /** When the agent was last nudged after an interruption (monotonic ms); a second nudge becomes a restart. */
  nudgedAt: number | null;
  stuckTimer: Cancel | null;
}

/** What the interruption that a resume ends looked like, for the log entry and the resume prompt. */
export interface ResumeContext {
  /** How long the session was away (asleep or offline), when known. */
  awayMs: number | null;
  /** What the verification before this resume found, e.g. `checks 3/4 passed (tests failed)`; null: not verified yet. */
  checks: string | null;
}

/** The words of a SESSION RESUMED entry: why, how long, what the checks found. */
function resumeWords(reason: InterruptReason, context: ResumeContext | null): string {
  const away = context?.awayMs != null ? ` (away ${formatDuration(context.awayMs)})` : '';
  const checks = context?.checks ? `; ${context.checks}` : '';
  return `${REASON_WORDS[reason]}${away}${checks}`;
}

export interface StartReport {
  sessions: SessionInfo[];
  /** Sessions that could not be loaded or are driven by another process. */
  skipped: { stateDir: string; message: string }[];
}

export class Supervisor {
  readonly home: string;
  private readonly env: Env;
  private readonly direct: DirectBackend;
  private readonly tmux: TmuxBackend | null;
  private readonly clock: PowerClock;
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  private readonly policy: RestartPolicyConfig;
  private readonly sessions = new Map<string, Runtime>();
  private readonly listeners = new Set<(e: SupervisorEvent) => void>();
  private releaseHome: (() => void) | null = null;
  private shuttingDown = false;
  private queue: Promise<void> = Promise.resolve();
  private lastWakeAt: number | null = null;
  private asleep = false;

  constructor(private readonly options: SupervisorOptions = {}) {
    this.home = options.home ?? moriHome();
    this.env = options.env ?? process.env;
    this.direct = options.direct ?? new DirectBackend({ runDir: path.join(this.home, 'run') });
    this.tmux = options.tmux === undefined ? new TmuxBackend() : options.tmux;
    this.clock = options.clock ?? systemClock;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.random = options.random ?? Math.random;
    this.policy = { ...DEFAULT_RESTART_POLICY, ...options.policy };
  }

  // ---------------------------------------------------------------- events

  on(listener: (e: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Emits an event that happened outside the supervisor but belongs in its stream (power, network). */
  publish(e: SupervisorEvent): void {
    this.emit(e);
  }

  private emit(e: SupervisorEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // a broken listener must not break supervision
      }
    }
  }

  private base(rt: Runtime): { at: number; sessionId: string; name: string } {
    return { at: this.clock.wallMs(), sessionId: rt.id, name: rt.name };
  }

  // ---------------------------------------------------------------- start

  /**
   * Takes the home lock, loads every registered session, and brings up those named in `refs` (names,
   * ids or state dir paths) or, with none named, those meant to run. Re-attaches live tmux sessions at
   * once; other launches follow one at a time in the background.
   */
  async start(refs: string[] = []): Promise<Result<StartReport>> {
    ensureHome(this.home);
    const lock = tryLock(path.join(this.home, SUPERVISOR_LOCK), 'supervisor');
    if (!lock.ok) {
      return fail('conflict', `another Mori supervisor is running (pid ${lock.holder?.pid ?? '?'}, since ${lock.holder?.acquiredAt ?? '?'}); stop it first`);
    }
    this.releaseHome = lock.release;
    const wanted = new Set<string>();
    for (const ref of refs) {
      const dir = resolveSession(ref, process.cwd(), this.home);
      if (!dir.ok) {
        this.abortStart();
        return dir;
      }
      wanted.add(path.resolve(dir.value));
    }
    await this.direct.sweepOrphans();
    const registry = readRegistry(this.home);
    if (!registry.ok) {
      this.abortStart();
      return registry;
    }
    const skipped: StartReport['skipped'] = [];
    for (const entry of registry.value) {
      const loaded = this.load(entry.stateDir);
      if (!loaded.ok) skipped.push({ stateDir: entry.stateDir, message: loaded.message });
    }
    for (const dir of wanted) {
      if (![...this.sessions.values()].some((r) => path.resolve(r.stateDir) === dir)) {
        const loaded = this.load(dir);
        if (!loaded.ok) {
          this.abortStart();
          return loaded;
        }
      }
    }
    const alive = new Set(this.tmux ? (await this.tmux.list().catch(() => [])).filter((s) => s.alive).map((s) => s.id) : []);
    const toStart = [...this.sessions.values()].filter((rt) => (wanted.size > 0 ? wanted.has(path.resolve(rt.stateDir)) : meantToRun(rt.session) || alive.has(rt.id)));
    const current = bootId();
    for (const rt of toStart) {
      const action = startAction({ intent: rt.session.intent, tmuxAlive: alive.has(rt.id), hasRun: hasRun(rt.session), lastBootId: rt.session.lastBootId, currentBootId: current });
      if (action.kind === 'reattach') await this.reattach(rt);
      else this.enqueue(rt, action);
    }
    this.emit({ type: 'supervisor.ready', at: this.clock.wallMs(), sessions: this.sessions.size, pid: process.pid });
    return ok({ sessions: this.list(), skipped });
  }

  private load(stateDir: string): Result<Runtime> {
    const file = readSessionFile(stateDir);
    if (!file.ok) return file;
    const existing = this.sessions.get(file.value.id);
    if (existing) return ok(existing);
    const profile = getProfile(file.value.agent.profile);
    if (!profile.ok) return profile;
    const lock = tryLock(path.join(stateDir, SESSION_LOCK), 'supervisor');
    if (!lock.ok) return fail('conflict', `${stateDir}: supervised by another process (pid ${lock.holder?.pid ?? '?'})`);
    const s = file.value;
    const rt: Runtime = {
      id: s.id,
      name: s.name,
      stateDir,
      session: s,
      profile: profile.value,
      state: s.intent.kind === 'user-stopped' ? 'stopped' : s.intent.kind === 'finished' ? 'finished' : s.intent.kind === 'attention' ? 'attention' : 'idle',
      terminal: null,
      monitor: null,
      activity: 'unknown',
      launch: 'new',
      spec: null,
      startedAt: 0,
      restart: initialRestartState(),
      failedResume: s.failedResume,
      userStop: false,
      retryTimer: null,
      checkpointTimer: null,
      nextAttemptAt: null,
      pendingTypePrompt: null,
      viewEnders: new Set(),
      releaseLock: lock.release,
      generation: 0,
      nudgedAt: null,
      stuckTimer: null,
    };
    this.sessions.set(rt.id, rt);
    return ok(rt);
  }

  /** Runs launches one at a time, a stagger apart, so a start or a wake never storms. */
  private enqueue(rt: Runtime, action: StartAction): void {
    const gen = rt.generation;
    const stagger = this.options.startStaggerMs ?? START_STAGGER_MS;
    this.queue = this.queue.then(async () => {
      if (this.shuttingDown || rt.generation !== gen) return;
      await this.bringUp(rt, action);
      if (stagger > 0) await new Promise<void>((resolve) => this.scheduler.after(stagger, resolve, true));
    });
  }

  private async reattach(rt: Runtime): Promise<void> {
    if (!this.tmux) return;
    const r = await this.tmux.reattach(rt.id, { transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR) });
    if (!r.ok) {
      this.enqueue(rt, { kind: 'relaunch', reason: 'app-exit' });
      return;
    }
    this.setState(rt, 'starting');
    this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'running' }, lastBootId: bootId() }));
    this.log(rt, `REATTACHED - tmux session ${tmuxSessionName(rt.id)} was still running (pid ${r.value.pid})`);
    rt.spec = null;
    this.adopt(rt, r.value, 'reattach');
  }

  private async bringUp(rt: Runtime, action: StartAction): Promise<void> {
    if (action.kind === 'reattach') return this.reattach(rt);
    if (action.kind === 'new') return this.launch(rt, planNewLaunch(rt.profile, rt.session, this.env), null);
    return this.relaunch(rt, action.reason);
  }

  /** interrupted(reason) → verifying → resuming → running, for an agent that is not running. */
  private async relaunch(rt: Runtime, reason: InterruptReason, context: ResumeContext | null = null): Promise<void> {
    const gen = ++rt.generation;
    const k = rt.session.intent.kind;
    // A session the person stopped (or that finished) and now starts again was not interrupted.
    if (k !== 'interrupted' && k !== 'user-stopped' && k !== 'finished' && k !== 'attention') {
      this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason } }));
      this.log(rt, `SESSION INTERRUPTED - ${REASON_WORDS[reason]}`);
      this.setState(rt, 'interrupted');
      this.emit({ type: 'session.interrupted', ...this.base(rt), reason, retryInMs: null });
    }
    let ctx = context;
    if ((this.options.verify ?? true) && (ctx === null || ctx.checks === null)) {
      this.setState(rt, 'verifying');
      this.emit({ type: 'verify.started', ...this.base(rt) });
      const v = await verifySession(rt.stateDir, { restartServices: true }).catch((e: unknown) => fail('failed', String(e)));
      const summary = v.ok ? v.value.summary.text : v.message;
      this.emit({ type: 'verify.finished', ...this.base(rt), ok: v.ok && v.value.summary.failed + v.value.summary.timedOut === 0, summary });
      if (gen !== rt.generation || this.shuttingDown) return;
      ctx = { awayMs: ctx?.awayMs ?? null, checks: summary };
    }
    this.reload(rt);
    const plan = await planRelaunchLaunch({
      profile: rt.profile,
      stateDir: rt.stateDir,
      session: rt.session,
      reason,
      awayMs: ctx?.awayMs ?? null,
      env: this.env,
      failedResume: rt.failedResume,
    });
    if (gen !== rt.generation || this.shuttingDown) return;
    await this.launch(rt, plan, reason, ctx);
  }

  private async launch(rt: Runtime, plan: Result<PlannedLaunch>, reason: InterruptReason | null, context: ResumeContext | null = null): Promise<void> {
    const gen = ++rt.generation;
    if (!plan.ok) return this.needsAttention(rt, 'launch-failed', plan.message);
    const { spec, kind } = plan.value;
    this.setState(rt, reason === null ? 'starting' : 'resuming');
    if (reason !== null) this.emit({ type: 'session.resuming', ...this.base(rt), launch: kind });
    const { backend, note } = await this.backendFor(rt.session.backend);
    const size = this.options.size ?? DEFAULT_SIZE;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.env)) if (v !== undefined) env[k] = v;
    env['MORI_SESSION_ID'] = rt.id;
    env['MORI_STATE_DIR'] = rt.stateDir;
    const spawned = await backend.spawn({
      id: rt.id,
      command: spec.file,
      args: spec.args,
      cwd: spec.cwd,
      env,
      cols: size.cols,
      rows: size.rows,
      transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR),
    });
    if (gen !== rt.generation || this.shuttingDown) {
      if (spawned.ok) await spawned.value.kill().catch(() => undefined);
      return;
    }
    if (!spawned.ok) return this.needsAttention(rt, 'launch-failed', spawned.message);
    rt.spec = spec;
    rt.pendingTypePrompt = spec.typePrompt;
    this.writeSession(rt, (s) => ({
      ...s,
      intent: { kind: 'running' },
      agent: { ...s.agent, sessionId: spec.agentSessionId ?? s.agent.sessionId, cwd: spec.agentSessionId !== null ? spec.cwd : s.agent.cwd },
      lastBootId: bootId(),
    }));
    const words = describeLaunch(plan.value);
    this.log(rt, reason === null ? `SESSION STARTED - agent ${rt.profile.name} (${words})${note}` : `SESSION RESUMED - ${resumeWords(reason, context)}; ${words}${note}`);
    this.adopt(rt, spawned.value, kind);
    if (reason !== null) this.emit({ type: 'session.resumed', ...this.base(rt), launch: kind });
  }

  private async backendFor(want: 'tmux' | 'direct'): Promise<{ backend: TerminalBackend; note: string }> {
    if (want === 'tmux' && this.tmux) {
      const a = await this.tmux.detect();
      if (a.available) return { backend: this.tmux, note: '' };
      return { backend: this.direct, note: `; tmux unusable (${a.reason ?? 'unknown'}), running in a direct terminal` };
    }
    if (want === 'tmux') return { backend: this.direct, note: '; tmux unavailable, running in a direct terminal' };
    return { backend: this.direct, note: '' };
  }

  /** Takes charge of a running terminal: activity, checkpoints, exit handling. */
  private adopt(rt: Runtime, terminal: Terminal, launch: LaunchKind): void {
    rt.terminal = terminal;
    rt.launch = launch;
    rt.startedAt = this.clock.monoMs();
    rt.activity = 'unknown';
    rt.nextAttemptAt = null;
    const agentId = rt.session.agent.sessionId;
    rt.monitor = new ActivityMonitor(terminal, {
      patterns: rt.profile.patterns,
      clock: this.clock,
      scheduler: this.scheduler,
      ...(this.options.activity?.readDelayMs !== undefined ? { readDelayMs: this.options.activity.readDelayMs } : {}),
      ...(this.options.activity?.settleMs !== undefined ? { settleMs: this.options.activity.settleMs } : {}),
      ...(rt.profile.name === 'claude' && agentId !== null
        ? { reported: async () => { const s = await findClaudeStatus(this.env, agentId); return s ? activityFromClaudeStatus(s.status) : null; } }
        : {}),
      onTransition: (t) => {
        if (rt.terminal !== terminal) return;
        rt.activity = t.to;
        this.emit({ type: 'session.activity', ...this.base(rt), from: t.from, to: t.to });
        if (t.to === 'waiting' && rt.pendingTypePrompt !== null) {
          terminal.write(`${rt.pendingTypePrompt}\r`);
          rt.pendingTypePrompt = null;
        }
      },
    });
    this.scheduleCheckpoint(rt, terminal);
    terminal.onExit((exit) => this.onExit(rt, terminal, exit));
    this.setState(rt, 'running');
    this.emit({ type: 'session.started', ...this.base(rt), launch, backend: terminal.backend, pid: terminal.pid, agentSessionId: rt.session.agent.sessionId });
  }

  private scheduleCheckpoint(rt: Runtime, terminal: Terminal): void {
    rt.checkpointTimer?.();
    const every = this.options.checkpointIntervalMs ?? CHECKPOINT_INTERVAL_MS;
    // Spread over the first interval so many sessions do not all run git at once.
    const first = Math.round(every * (0.5 + this.random() / 2));
    const tick = (): void => {
      if (rt.terminal !== terminal) return;
      this.checkpoint(rt);
      rt.checkpointTimer = this.scheduler.after(every, tick);
    };
    rt.checkpointTimer = this.scheduler.after(first, tick);
  }

  private checkpoint(rt: Runtime): void {
    const r = writeCheckpoint(rt.stateDir, rt.session.projectDir);
    if (!r.ok) return;
    rt.session = r.value.session;
    this.emit({ type: 'checkpoint.written', ...this.base(rt), gitHead: r.value.checkpoint.gitHead, changedFiles: r.value.checkpoint.changedFiles.length, changed: r.value.changed });
  }

  // ---------------------------------------------------------------- exits

  private onExit(rt: Runtime, terminal: Terminal, exit: TerminalExit): void {
    if (rt.terminal !== terminal) return;
    this.detachRuntime(rt, 'the agent exited');
    void terminal.dispose().catch(() => undefined);
    if (this.shuttingDown && !rt.userStop) {
      this.writeSession(rt, (s) => ({ ...s, lastExit: exitRecord(exit) }));
      return;
    }
    const now = this.clock.monoMs();
    const decision = decideOnExit({
      exit,
      userStop: rt.userStop,
      shuttingDown: this.shuttingDown,
      nearSleep: this.asleep || (this.lastWakeAt !== null && now - this.lastWakeAt < NEAR_SLEEP_MS),
      launch: rt.launch,
      uptimeMs: now - rt.startedAt,
      restart: rt.restart,
      now,
      random: this.random(),
      policy: this.policy,
    });
    const status = exit.signal !== null ? `signal ${exit.signal}` : `exit ${exit.code ?? '?'}`;
    this.writeSession(rt, (s) => ({
      ...s,
      intent: decision.intent,
      lastExit: exitRecord(exit),
      restartHistory: decision.kind === 'restart' && decision.countsAsCrash ? [...s.restartHistory, new Date(this.clock.wallMs()).toISOString()].slice(-RESTART_HISTORY_KEEP) : s.restartHistory,
    }));
    this.checkpoint(rt);
    const exited = (outcome: 'finished' | 'crash' | 'stopped' | 'resume-failed'): void =>
      this.emit({ type: 'session.exited', ...this.base(rt), code: exit.code, signal: exit.signal, outcome });
    switch (decision.kind) {
      case 'stopped':
        this.log(rt, `SESSION STOPPED - by the user (${status})`);
        this.setState(rt, 'stopped');
        exited('stopped');
        this.emit({ type: 'session.stopped', ...this.base(rt), by: 'user' });
        return;
      case 'supervisor-stopped':
        return;
      case 'finished':
        this.log(rt, 'SESSION FINISHED - agent exited 0');
        this.setState(rt, 'finished');
        exited('finished');
        return;
      case 'attention':
        rt.restart = decision.restart;
        this.log(rt, `SESSION INTERRUPTED - agent crashed (${status})`);
        exited('crash');
        this.needsAttention(rt, decision.reason, decision.message);
        return;
      case 'restart': {
        rt.restart = decision.restart;
        if (decision.resumeFailed && rt.spec) {
          const failed = { file: rt.spec.file, agentSessionId: rt.spec.agentSessionId };
          rt.failedResume = failed;
          this.writeSession(rt, (s) => ({ ...s, failedResume: failed }));
        }
        const seconds = Math.max(1, Math.round(decision.delayMs / 1000));
        const what = decision.reason === 'sleep' ? `agent exited around a sleep (${status})` : decision.resumeFailed ? `resume failed (${status}); next: a fresh start` : `agent crashed (${status})`;
        this.log(rt, `SESSION INTERRUPTED - ${what}; restarting in ${seconds}s`);
        this.setState(rt, 'backoff');
        exited(decision.resumeFailed ? 'resume-failed' : 'crash');
        this.emit({ type: 'session.interrupted', ...this.base(rt), reason: decision.reason, retryInMs: decision.delayMs });
        const gen = rt.generation;
        rt.nextAttemptAt = this.clock.wallMs() + decision.delayMs;
        rt.retryTimer = this.scheduler.after(
          decision.delayMs,
          () => {
            rt.retryTimer = null;
            if (rt.generation !== gen || this.shuttingDown) return;
            void this.relaunch(rt, decision.reason);
          },
          true,
        );
        return;
      }
    }
  }

  private needsAttention(rt: Runtime, reason: string, message: string): void {
    this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'attention', reason } }));
    this.log(rt, `SESSION NEEDS ATTENTION - ${reason}: ${message}`);
    this.setState(rt, 'attention');
    this.emit({ type: 'session.attention', ...this.base(rt), reason, message });
  }

  private detachRuntime(rt: Runtime, why: string): void {
    rt.monitor?.dispose();
    rt.monitor = null;
    rt.checkpointTimer?.();
    rt.checkpointTimer = null;
    rt.stuckTimer?.();
    rt.stuckTimer = null;
    rt.terminal = null;
    for (const end of [...rt.viewEnders]) end(why);
    rt.viewEnders.clear();
  }

  // ---------------------------------------------------------------- requests

  private find(ref: string): Result<Runtime> {
    const byId = this.sessions.get(ref);
    if (byId) return ok(byId);
    const named = [...this.sessions.values()].filter((r) => r.name === ref || path.resolve(r.stateDir) === path.resolve(ref));
    if (named.length === 1 && named[0]) return ok(named[0]);
    if (named.length > 1) return fail('usage', `"${ref}" names ${named.length} sessions; give the id`);
    return fail('not-found', `no session "${ref}" in this supervisor (see \`mori ls\`)`);
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((rt) => this.info(rt));
  }

  info(rt: Runtime): SessionInfo {
    return {
      id: rt.id,
      name: rt.name,
      stateDir: rt.stateDir,
      state: rt.state,
      activity: rt.activity,
      backend: rt.terminal?.backend ?? rt.session.backend,
      pid: rt.terminal?.pid ?? null,
      intent: rt.session.intent,
      nextAttemptAt: rt.nextAttemptAt,
    };
  }

  /** Starts (or restarts) a session on the person's request, even one they stopped or that finished. */
  async startSession(ref: string): Promise<Result<SessionInfo>> {
    let found = this.find(ref);
    if (!found.ok && found.code === 'not-found') {
      const dir = resolveSession(ref, process.cwd(), this.home);
      found = dir.ok ? this.load(dir.value) : found;
    }
    if (!found.ok) return found;
    const rt = found.value;
    if (rt.terminal) return ok(this.info(rt));
    rt.retryTimer?.();
    rt.retryTimer = null;
    rt.userStop = false;
    rt.restart = initialRestartState();
    rt.failedResume = null;
    this.writeSession(rt, (s) => ({ ...s, failedResume: null }));
    const alive = this.tmux ? await this.tmux.isAlive(rt.id).catch(() => false) : false;
    const action = startAction({ intent: rt.session.intent, tmuxAlive: alive, hasRun: hasRun(rt.session), lastBootId: rt.session.lastBootId, currentBootId: bootId() });
    await this.bringUp(rt, action);
    return ok(this.info(rt));
  }

  /** The person stops a session: the agent is ended and never auto-resumed (intent user-stopped). */
  async stopSession(ref: string): Promise<Result<SessionInfo>> {
    const found = this.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    rt.userStop = true;
    rt.generation++;
    rt.retryTimer?.();
    rt.retryTimer = null;
    rt.nextAttemptAt = null;
    if (rt.terminal) {
      await rt.terminal.kill();
      return ok(this.info(rt));
    }
    this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'user-stopped' } }));
    this.log(rt, 'SESSION STOPPED - by the user');
    this.setState(rt, 'stopped');
    this.emit({ type: 'session.stopped', ...this.base(rt), by: 'user' });
    return ok(this.info(rt));
  }

  /** Types text into the agent's terminal (with Enter unless `enter` is false). */
  send(ref: string, text: string, enter = true): Result<{ chars: number }> {
    const found = this.find(ref);
    if (!found.ok) return found;
    const t = found.value.terminal;
    if (!t) return fail('failed', `session "${found.value.name}" is not running (${found.value.state})`);
    const data = enter ? `${text}\r` : text;
    t.write(data);
    return ok({ chars: data.length });
  }

  /** Connects a view to the session's terminal; `onEnd` is told when the terminal goes away. */
  attach(ref: string, view: TerminalView, onEnd: (reason: string) => void): Result<{ attachment: Attachment; terminal: Terminal; info: SessionInfo }> {
    const found = this.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    const t = rt.terminal;
    if (!t) return fail('failed', `session "${rt.name}" is not running (${rt.state})`);
    const attachment = t.attach(view);
    const ender = (reason: string): void => {
      attachment.detach();
      onEnd(reason);
    };
    rt.viewEnders.add(ender);
    const wrapped: Attachment = {
      id: attachment.id,
      ready: attachment.ready,
      ack: (chars) => attachment.ack(chars),
      detach: () => {
        rt.viewEnders.delete(ender);
        attachment.detach();
      },
    };
    return ok({ attachment: wrapped, terminal: t, info: this.info(rt) });
  }

  // ---------------------------------------------------------------- control API additions

  /** Loads a session (one just created by `session.init`) so list() shows it, without starting it. */
  loadSession(ref: string): Result<SessionInfo> {
    const found = this.find(ref);
    if (found.ok) return ok(this.info(found.value));
    const dir = resolveSession(ref, process.cwd(), this.home);
    if (!dir.ok) return dir;
    const loaded = this.load(dir.value);
    return loaded.ok ? ok(this.info(loaded.value)) : loaded;
  }

  // ---------------------------------------------------------------- power entry points

  /** The machine is going to sleep (true) or woke (false); exits near a sleep are not crashes. */
  setAsleep(asleep: boolean): void {
    this.asleep = asleep;
    if (!asleep) this.lastWakeAt = this.clock.monoMs();
  }

  /** Records an interruption of a running session (sleep, network): checkpoint, log, intent. */
  interruptSession(ref: string, reason: InterruptReason): Result<SessionInfo> {
    const found = this.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    if (rt.state !== 'running') return ok(this.info(rt));
    this.checkpoint(rt);
    this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason } }));
    this.log(rt, `SESSION INTERRUPTED - ${REASON_WORDS[reason]}`);
    this.setState(rt, 'interrupted');
    this.emit({ type: 'session.interrupted', ...this.base(rt), reason, retryInMs: null });
    return ok(this.info(rt));
  }

  /**
   * Resumes an interrupted session (DESIGN.md §4, "Resume action"), as decideResumeAction says: a dead
   * agent is relaunched (its resume command and id, or fresh); a live one that works is left alone; one
   * that waits or shows an error gets the nudge; one still in error after a nudge, or long after the
   * wake, is restarted with its resume command. `context` carries the time away and the checks found.
   */
  async resumeSession(ref: string, reason: InterruptReason, context: ResumeContext | null = null): Promise<Result<SessionInfo>> {
    const found = this.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    if (rt.userStop || rt.session.intent.kind === 'user-stopped') return ok(this.info(rt));
    const t = rt.terminal;
    const sinceWake = this.lastWakeAt === null ? 0 : this.clock.monoMs() - this.lastWakeAt;
    const action = decideResumeAction(
      { id: rt.id, state: rt.state, alive: t !== null, activity: rt.activity, needsNetwork: true, userStopped: false },
      sinceWake,
      rt.nudgedAt !== null,
      this.options.stuckAfterWakeMs ?? STUCK_AFTER_WAKE_MS,
    );
    if (action.kind === 'relaunch' || t === null) {
      if (rt.state === 'backoff' || rt.state === 'verifying' || rt.state === 'resuming' || rt.state === 'starting') return ok(this.info(rt));
      await this.relaunch(rt, reason, context);
      return ok(this.info(rt));
    }
    if (action.kind === 'restart') {
      this.log(rt, `SESSION RESUMED - ${resumeWords(reason, context)}; ${action.why}: restarting it with its resume command`);
      this.detachRuntime(rt, 'the agent is restarted');
      rt.nudgedAt = null;
      await t.kill().catch(() => undefined);
      void t.dispose().catch(() => undefined);
      if (rt.state !== 'interrupted') this.setState(rt, 'interrupted');
      await this.relaunch(rt, reason, { awayMs: context?.awayMs ?? null, checks: context?.checks ?? null });
      return ok(this.info(rt));
    }
    this.setState(rt, 'resuming');
    this.emit({ type: 'session.resuming', ...this.base(rt), launch: rt.launch });
    let what = `agent still running (${rt.activity})`;
    if (action.kind === 'nudge') {
      const nudge = rt.profile.nudge({ projectDir: rt.session.projectDir, name: rt.name });
      if (nudge !== null) {
        t.write(`${nudge}\r`);
        rt.nudgedAt = this.clock.monoMs();
        what = `agent still running, ${rt.activity}: nudged to continue`;
        this.watchForStuck(rt, t, reason);
      }
    }
    this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'running' } }));
    this.log(rt, `SESSION RESUMED - ${resumeWords(reason, context)}; ${what}`);
    this.setState(rt, 'running');
    this.emit({ type: 'session.resumed', ...this.base(rt), launch: rt.launch });
    return ok(this.info(rt));
  }

  /**
   * After a nudge, an agent that still shows an error once STUCK_AFTER_WAKE_MS has passed (a
   * connection that never came back inside it) is restarted with its resume command. Progress clears it.
   */
  private watchForStuck(rt: Runtime, t: Terminal, reason: InterruptReason): void {
    rt.stuckTimer?.();
    rt.stuckTimer = this.scheduler.after(this.options.stuckAfterWakeMs ?? STUCK_AFTER_WAKE_MS, () => {
      rt.stuckTimer = null;
      if (rt.terminal !== t || this.shuttingDown) return;
      if (rt.activity !== 'error') {
        rt.nudgedAt = null;
        return;
      }
      void this.resumeSession(rt.id, reason, null);
    });
  }

  // ---------------------------------------------------------------- shutdown

  /**
   * Stops supervising: checkpoints and logs every running session, leaves tmux sessions running
   * (the next supervisor re-attaches them), ends direct ones cleanly, releases the locks.
   */
  async shutdown(): Promise<void> {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    const waits: Promise<unknown>[] = [];
    for (const rt of this.sessions.values()) {
      rt.retryTimer?.();
      rt.retryTimer = null;
      rt.generation++;
      const t = rt.terminal;
      if (t && !rt.userStop) {
        this.checkpoint(rt);
        this.log(rt, 'SESSION INTERRUPTED - supervisor stopped');
        if (t.backend === 'tmux') {
          this.detachRuntime(rt, 'the supervisor stopped');
          waits.push(t.dispose().catch(() => undefined));
        } else {
          this.writeSession(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason: 'supervisor-stopped' } }));
          waits.push(t.kill().catch(() => undefined));
        }
        this.emit({ type: 'session.stopped', ...this.base(rt), by: 'supervisor' });
      }
    }
    await Promise.all(waits);
    await this.queue.catch(() => undefined);
    for (const rt of this.sessions.values()) rt.releaseLock();
    this.releaseHomeLock();
  }

  private releaseHomeLock(): void {
    this.releaseHome?.();
    this.releaseHome = null;
  }

  /** A start that failed half-way lets go of everything it took. */
  private abortStart(): void {
    for (const rt of this.sessions.values()) rt.releaseLock();
    this.sessions.clear();
    this.releaseHomeLock();
  }

  // ---------------------------------------------------------------- helpers

  private setState(rt: Runtime, to: RuntimeState): void {
    if (!canTransition(rt.state, to)) throw new Error(`session ${rt.name}: no transition ${rt.state} → ${to}`);
    rt.state = to;
  }

  private reload(rt: Runtime): void {
    const r = readSessionFile(rt.stateDir);
    if (r.ok) rt.session = r.value;
  }

  private writeSession(rt: Runtime, change: (s: SessionFile) => SessionFile): void {
    const r = updateSessionFile(rt.stateDir, change);
    if (r.ok) rt.session = r.value;
  }

  private log(rt: Runtime, line: string): void {
    try {
      appendEntry(rt.stateDir, [line], new Date(this.clock.wallMs()));
    } catch {
      // the state dir vanished or the disk is full: supervision goes on, `mori ls` reports the dir
    }
  }
}

function exitRecord(exit: TerminalExit): { at: string; code: number | null; signal: string | null } {
  return { at: new Date().toISOString(), code: exit.code, signal: exit.signal };
}

/** Whether the agent ever ran (a session marked `new` by hand after running resumes, not restarts). */
function hasRun(s: SessionFile): boolean {
  return s.lastBootId !== null || s.lastExit !== null || s.agent.sessionId !== null;
}

