// The Supervisor (DESIGN.md §1, §4): the one object that owns every session of this Mori home, and
// the API the app, `mori up` and the control socket use. It builds the parts, each in the folder of
// its concern and handed at construction only what it uses: session/ (the set, its state files, the
// lifecycle moves, views), launch/ (staggered launches; spawn, adopt, re-attach), exits/ (what an
// exit means), resume/ (the one resume path and the one writer of what it says), checkpoints/ and
// typing/. Clock, timers and randomness are injectable.
import path from 'node:path';
import type { SupervisorEvent } from '../../common/events.js';
import type { SessionInfo } from '../../common/ipc.js';
import { fail, ok, type Failure, type Result } from '../../common/result.js';
import type { VerifyReport } from '../checks/verify-report.js';
import type { InterruptReason } from '../../common/session.js';
import type { Env } from '../agents/profile.js';
import type { UsageLimitSignal } from '../agents/usage-limit/usage-limit-signal.js';
import { background } from '../background.js';
import { systemClock, systemScheduler, type PowerClock } from '../power/clock.js';
import { Limiter } from '../state/limiter.js';
import { moriHome } from '../state/mori-home.js';
import { tryLock } from '../state/pid-lock.js';
import { ensureHome, readRegistry } from '../state/registry.js';
import { resolveSession } from '../state/resolve-session.js';
import { DirectBackend } from '../terminals/direct/direct-backend.js';
import type { Attachment, Terminal, TerminalView } from '../terminals/terminal.js';
import { TmuxBackend } from '../terminals/tmux/tmux-backend.js';
import { AgentIdLearner } from './launch/agent-id-learner.js';
import { AgentLauncher } from './launch/agent-launcher.js';
import { HookSignals } from './signals/hook-signals.js';
import { CHECKPOINT_CONCURRENCY, Checkpointer, type CheckpointPorts } from './checkpoints/checkpoint.js';
import { EventBus } from './session/event-bus.js';
import { ExitHandler } from './exits/exit-handler.js';
import { LaunchQueue } from './launch/launch-queue.js';
import { meantToRun } from './session/lifecycle.js';
import { DEFAULT_RESTART_POLICY, initialRestartState } from './exits/restart-policy.js';
import { interruptView, type InterruptView } from './resume/resume-plan.js';
import { ResumeController } from './resume/resume-controller.js';
import { ResumeJournal, type VerifyTarget } from './resume/resume-journal.js';
import { SessionSet } from './session/session-set.js';
import { paneCensus, SessionStartup } from './launch/session-startup.js';
import { SessionStore } from './session/session-store.js';
import { MachineState, type ResumeContext, type StartReport, type SupervisorOptions } from './supervisor-options.js';
import { SessionAdmin } from './session/session-admin.js';
import { shutdownSessions } from './supervisor-shutdown.js';
import { SessionTransitions } from './session/transitions.js';
import { Typist } from './typing/typed-input.js';
import { UsageLimits, type LimitReport } from './limits/usage-limits.js';
import { sessionInfo } from './session/session-info.js';
import { attachView, notRunning } from './session/view-hub.js';

export type { ResumeContext, StartReport, SupervisorOptions } from './supervisor-options.js';
export { DEFAULT_SIZE } from './launch/agent-launcher.js';
export { NEAR_SLEEP_MS } from './exits/exit-handler.js';

/** The lock that keeps a second supervisor (another `mori up`, the app) off this Mori home. */
export const SUPERVISOR_LOCK = 'supervisor.lock';
/** Sessions brought up at start go one at a time this far apart, never all at once (DESIGN.md §4). */
export const START_STAGGER_MS = 2_000;

export class Supervisor {
  readonly home: string;
  private readonly clock: PowerClock;
  private readonly direct: DirectBackend;
  private readonly tmux: TmuxBackend | null;
  private readonly store: SessionStore;
  private readonly moves: SessionTransitions;
  private readonly machine = new MachineState();
  private readonly typist: Typist;
  private readonly sessions: SessionSet;
  private readonly queue: LaunchQueue;
  private readonly exits: ExitHandler;
  private readonly checkpoints: Checkpointer;
  private readonly resumer: ResumeController;
  private readonly startup: SessionStartup;
  private readonly journal: ResumeJournal;
  private readonly hooks: HookSignals;
  private readonly limits: UsageLimits;
  private readonly events = new EventBus();
  /** Removing and renaming sessions (session-admin.ts). */
  readonly admin: SessionAdmin;
  /** What a checkpoint or a rollback asked of the daemon writes through: the store, and the one git limiter of this supervisor. */
  readonly checkpointPorts: CheckpointPorts;
  private readonly env: Env;
  private releaseHome: (() => void) | null = null;

  constructor(options: SupervisorOptions = {}) {
    const home = (this.home = options.home ?? moriHome());
    const clock: PowerClock = (this.clock = options.clock ?? systemClock);
    const scheduler = options.scheduler ?? systemScheduler;
    const random = options.random ?? Math.random;
    const emit = (e: SupervisorEvent): void => this.events.emit(e);
    const env: Env = (this.env = options.env ?? process.env);
    const machine = this.machine;
    this.sessions = new SessionSet(home, clock);
    const loaded = (stateDir: string) => this.sessions.byStateDir(stateDir) ?? null;
    // The store reports through the moves, which write through the store: tied after both exist.
    let moves: SessionTransitions | null = null;
    const store = new SessionStore({ home, clock, loaded, onUnwritable: (rt, message, reason) => moves?.unwritable(rt, message, reason) });
    moves = new SessionTransitions(clock, store, emit);
    this.store = store;
    this.moves = moves;
    this.direct = options.direct ?? new DirectBackend({ runDir: path.join(home, 'run') });
    this.tmux = options.tmux === undefined ? new TmuxBackend() : options.tmux;
    this.typist = new Typist({ env, store });
    this.queue = new LaunchQueue({
      staggerMs: options.startStaggerMs ?? START_STAGGER_MS,
      scheduler,
      onError: (what, err) => process.stderr.write(`mori: ${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
    });
    this.journal = new ResumeJournal({ home, clock, store, emit });
    const files = (this.checkpointPorts = { write: (dir, change) => store.update(dir, change), limiter: new Limiter(CHECKPOINT_CONCURRENCY) });
    const checkpoints = (this.checkpoints = new Checkpointer({ scheduler, random, moves, files, emit, intervalMs: options.checkpointIntervalMs }));
    // An exit's restart resumes through the resume path, which launches agents whose exits come
    // back here: the one cycle of the supervisor, closed by this port.
    const exits = (this.exits = new ExitHandler({
      clock,
      scheduler,
      random,
      policy: { ...DEFAULT_RESTART_POLICY, ...options.policy },
      machine,
      store,
      moves,
      emit,
      checkpoints,
      resumeAfterBackoff: (rt, reason) => this.resumer.resume(rt, reason, null),
    }));
    const ids = new AgentIdLearner({ env, scheduler, store, sessions: () => this.sessions.all() });
    const hooks = (this.hooks = new HookSignals({ home, store, now: () => clock.wallMs(), onUsageLimit: (rt, signal) => void this.limits.report(rt, signal) }));
    const launcher = new AgentLauncher({
      env,
      clock,
      scheduler,
      machine,
      direct: this.direct,
      tmux: this.tmux,
      store,
      moves,
      emit,
      size: options.size,
      activity: options.activity,
      checkpoints,
      ids,
      journal: this.journal,
      typist: this.typist,
      hooks,
      onExit: (rt, t, exit) => exits.onExit(rt, t, exit),
      limits: { report: (rt, signal) => void this.limits.report(rt, signal), working: (rt) => this.limits.agentWorking(rt) },
    });
    this.resumer = new ResumeController({
      home,
      env,
      clock,
      scheduler,
      machine,
      store,
      moves,
      verify: options.verify,
      stuckAfterWakeMs: options.stuckAfterWakeMs,
      launcher,
      exits,
      journal: this.journal,
      typist: this.typist,
      resumePolicy: options.resumePolicy,
    });
    const [sessions, resume] = [() => this.sessions.all(), this.resumer.resume.bind(this.resumer)];
    this.limits = new UsageLimits({ clock, scheduler, random, jitterMs: options.usageLimit?.jitterMs, jitterSlot: options.usageLimit?.jitterSlot, machine, env, store, moves, emit, sessions, resume });
    this.admin = new SessionAdmin({ home, sessions: this.sessions, tmux: this.tmux, stop: (ref) => this.stopSession(ref), emit, now: () => clock.wallMs(), checkpointsSettled: () => checkpoints.settled() });
    this.startup = new SessionStartup({ home, env, machine, tmux: this.tmux, queue: this.queue, launcher, resumer: this.resumer, exits });
  }

  // ---------------------------------------------------------------- events

  on(listener: (e: SupervisorEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** Emits an event that happened outside the supervisor but belongs in its stream (power, network). */
  publish(e: SupervisorEvent): void {
    this.events.emit(e);
  }

  // ---------------------------------------------------------------- start

  /**
   * Takes the home lock, loads every registered session, and brings up those named in `refs` (names,
   * ids or state dir paths of registered sessions) or, with none named, those meant to run.
   * Re-attaches live tmux sessions at once; other launches follow one at a time in the background.
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
      if (!dir.ok) return this.abortStart(dir);
      const registered = this.sessions.registered(dir.value);
      if (!registered.ok) return this.abortStart(registered);
      wanted.add(path.resolve(dir.value));
    }
    await this.direct.sweepOrphans();
    const registry = readRegistry(this.home);
    if (!registry.ok) return this.abortStart(registry);
    const skipped: StartReport['skipped'] = [];
    for (const entry of registry.value) {
      const loaded = this.sessions.load(entry.stateDir);
      if (!loaded.ok) skipped.push({ stateDir: entry.stateDir, message: loaded.message });
    }
    for (const dir of wanted) {
      if (this.sessions.byStateDir(dir)) continue;
      const loaded = this.sessions.load(dir);
      if (!loaded.ok) return this.abortStart(loaded);
    }
    const census = paneCensus(this.tmux ? await this.tmux.list().catch(() => []) : []);
    const toStart = this.sessions.all().filter((rt) => (wanted.size > 0 ? wanted.has(path.resolve(rt.stateDir)) : meantToRun(rt.session) || census.alive.has(rt.id)));
    for (const rt of toStart) {
      const action = this.startup.action(rt, census);
      await this.limits.startUp(rt, action, () => this.startup.bringUp(rt, action, false), async () => this.tmux?.remove(rt.id));
    }
    // Dead panes of sessions not meant to run (stopped, finished): nothing to resume, only to clear.
    for (const rt of this.sessions.all()) if (census.dead.has(rt.id) && !toStart.includes(rt)) await this.tmux?.remove(rt.id);
    this.events.emit({ type: 'supervisor.ready', at: this.clock.wallMs(), sessions: this.sessions.size, pid: process.pid });
    return ok({ sessions: this.list(), skipped });
  }

  // ---------------------------------------------------------------- requests

  list(): SessionInfo[] {
    return this.sessions.all().map(sessionInfo);
  }

  /** Starts (or restarts) a registered session on the person's request, even one they stopped or that finished. */
  async startSession(ref: string): Promise<Result<SessionInfo>> {
    let found = this.sessions.find(ref);
    if (!found.ok && found.code === 'not-found') {
      const dir = resolveSession(ref, process.cwd(), this.home);
      const registered = dir.ok ? this.sessions.registered(dir.value) : dir;
      found = !dir.ok ? dir : !registered.ok ? registered : this.sessions.load(dir.value);
    }
    if (!found.ok) return found;
    const rt = found.value;
    if (rt.terminal) return ok(sessionInfo(rt));
    rt.timers.clear('retry', 'limit');
    rt.resetForStart(initialRestartState());
    this.store.write(rt, (s) => ({ ...s, failedResume: null, restartHistory: [], usageLimit: null }));
    const panes = this.tmux ? (await this.tmux.list().catch(() => [])).filter((p) => p.id === rt.id) : [];
    // A dead pane left over is not this start's business: the person wants the agent running again.
    if (panes.some((p) => !p.alive)) await this.tmux?.remove(rt.id);
    await this.startup.bringUp(rt, this.startup.action(rt, paneCensus(panes.filter((p) => p.alive))), true);
    return ok(sessionInfo(rt));
  }

  /** The person stops a session: the agent's whole process group is ended, and it is never auto-resumed. */
  async stopSession(ref: string): Promise<Result<SessionInfo>> {
    const found = this.sessions.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    rt.takeCharge();
    rt.timers.clear('retry', 'limit');
    rt.cancelRetry();
    const t = rt.terminal;
    if (t) {
      rt.markStopping();
      // kill(), not dispose(): a tmux session must end too, with everything the agent started.
      await t.kill();
      return ok(sessionInfo(rt));
    }
    this.store.write(rt, (s) => ({ ...s, intent: { kind: 'user-stopped' } }));
    this.store.log(rt, 'SESSION STOPPED - by the user');
    this.moves.move(rt, 'stop');
    this.events.emit({ type: 'session.stopped', ...this.moves.base(rt), by: 'user' });
    return ok(sessionInfo(rt));
  }

  /**
   * Types text into the agent's terminal. With Enter (the default) it is delivered as the profile's
   * typing rules say and confirmed taken; without, it is written as is (keys for the agent to read).
   */
  async send(ref: string, text: string, enter = true): Promise<Result<{ chars: number }>> {
    const found = this.sessions.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    if (!rt.terminal) return notRunning(rt);
    const outcome = await this.typist.type(rt, text, 'send', enter);
    if (outcome.kind === 'submitted') return ok({ chars: text.length });
    if (outcome.kind === 'agent-retrying') return fail('failed', `session "${rt.name}": the agent is retrying a request by itself; nothing was typed (send again once it is done)`);
    return fail('failed', `session "${rt.name}": the text was not taken: ${outcome.why}`);
  }

  /** A source (the screen, the agent's hook, its transcript) says the session's agent hit its usage limit. */
  reportUsageLimit(ref: string, signal: UsageLimitSignal): Result<LimitReport> {
    const found = this.sessions.find(ref);
    return found.ok ? ok(this.limits.report(found.value, signal)) : found;
  }

  /** The person's choice at a usage limit: resume now (also once stopped at it), or not at all (stopped at it). */
  async limitChoice(ref: string, choice: 'resume-now' | 'dont-resume'): Promise<Result<SessionInfo>> {
    const found = this.sessions.find(ref);
    if (!found.ok) return found;
    const r = choice === 'resume-now' ? await this.limits.resumeNow(found.value) : this.limits.dontResume(found.value);
    return !r.ok ? r : choice === 'dont-resume' ? this.stopSession(ref) : ok(sessionInfo(found.value));
  }

  /** Connects a view to the session's terminal; `onEnd` is told when the terminal goes away. */
  attach(ref: string, view: TerminalView, onEnd: (reason: string) => void, holding = true): Result<{ attachment: Attachment; terminal: Terminal; info: SessionInfo }> {
    const found = this.sessions.find(ref);
    if (!found.ok) return found;
    const r = attachView(found.value, view, onEnd, holding);
    return r.ok ? ok({ ...r.value, info: sessionInfo(found.value) }) : r;
  }

  /** Loads a session (one just created by `session.init`) so list() shows it, without starting it. */
  loadSession(ref: string): Result<SessionInfo> {
    const found = this.sessions.find(ref);
    if (found.ok) return ok(sessionInfo(found.value));
    const dir = resolveSession(ref, process.cwd(), this.home);
    if (!dir.ok) return dir;
    const registered = this.sessions.registered(dir.value);
    if (!registered.ok) return registered;
    const loaded = this.sessions.load(dir.value);
    return loaded.ok ? ok(sessionInfo(loaded.value)) : loaded;
  }

  /**
   * Verifies a session on request (`checks.verify`), announced as the resume path announces its own
   * (verify.started, verify.finished); a loaded session's info() then shows the results.
   */
  verifyChecks(target: VerifyTarget, restartServices: boolean): Promise<Result<VerifyReport>> {
    return this.journal.verify(target, restartServices);
  }

  /** Every session as a suspend, a wake or a network change sees it (the interruption orchestrator). */
  interruptViews(): InterruptView[] {
    return this.sessions.all().map((rt) => interruptView(rt, this.env));
  }

  /** The machine is going to sleep (true) or woke (false); exits near a sleep are not crashes. */
  setAsleep(asleep: boolean): void {
    this.machine.setAsleep(asleep, this.clock.monoMs());
    if (!asleep) this.limits.woke();
  }

  /** Records an interruption of a running session (sleep, network): checkpoint, log, intent. */
  interruptSession(ref: string, reason: InterruptReason): Result<SessionInfo> {
    const found = this.sessions.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    if (rt.state !== 'running') return ok(sessionInfo(rt));
    background(this.checkpoints.take(rt, reason === 'sleep' ? 'suspend' : `interrupted (${reason})`), `checkpointing ${rt.name}`);
    this.moves.interrupt(rt, reason);
    return ok(sessionInfo(rt));
  }

  /** Resolves once every checkpoint begun so far (a suspend's, above all) is on disk. */
  checkpointsSettled(): Promise<void> {
    return this.checkpoints.settled();
  }

  /**
   * Resumes an interrupted session through the one resume path (resume-controller.ts): verify
   * (unless `context.checks` says it was), then relaunch, nudge, restart or leave it, as found.
   */
  async resumeSession(ref: string, reason: InterruptReason, context: ResumeContext | null = null): Promise<Result<SessionInfo>> {
    const found = this.sessions.find(ref);
    if (!found.ok) return found;
    // The work tree as the interruption left it, recorded as the resume begins (not awaited: git never delays a
    // resume); on the next turn of the loop, so a wake's checks all start before the git spawns.
    const rt = found.value;
    if (rt.terminal !== null) setImmediate(() => background(this.checkpoints.take(rt, 'before resume'), `checkpointing ${rt.name}`));
    // At a usage limit: resumed only once its time has come (a wake through it), as the limit's one resume.
    await (found.value.state === 'limited' ? this.limits.resumeIfDue(found.value, context) : this.resumer.resume(found.value, reason, context));
    return ok(sessionInfo(found.value));
  }

  /**
   * Stops supervising: checkpoints and logs every running session, leaves tmux sessions running
   * (the next supervisor re-attaches them), ends direct ones cleanly, releases the locks.
   */
  async shutdown(): Promise<void> {
    if (!this.machine.beginShutdown()) return;
    await shutdownSessions({ store: this.store, moves: this.moves, emit: (e) => this.events.emit(e), exits: this.exits, checkpoints: this.checkpoints }, this.sessions.all());
    await this.queue.close();
    this.hooks.dispose();
    this.sessions.release(false);
    this.releaseHomeLock();
  }

  private releaseHomeLock(): void {
    this.releaseHome?.();
    this.releaseHome = null;
  }

  /** A start that failed half-way lets go of everything it took, and says why. */
  private abortStart(failure: Failure): Failure {
    this.sessions.release(true);
    this.releaseHomeLock();
    return failure;
  }
}
