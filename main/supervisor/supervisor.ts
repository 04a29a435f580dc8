// The Supervisor (DESIGN.md §1, §4): the one object that owns every session of this Mori home, and
// the API the app, `mori up` and the control socket use. Its parts, each in the folder of its concern
// (session/, typing/, checkpoints/, limits/, signals/, exits/, launch/, resume/), are built in that
// order by supervisor-parts.ts, which then subscribes each to the events of the parts before it;
// this file only answers requests through them. Clock, timers and randomness are injectable.
import path from 'node:path';
import type { SupervisorEvent } from '../../common/events.js';
import type { LiveSession } from '../../common/ipc.js';
import { fail, ok, type Failure, type Result } from '../../common/result.js';
import type { VerifyReport } from '../checks/verify-report.js';
import type { InterruptReason } from '../../common/session.js';
import type { UsageLimitSignal } from '../agents/usage-limit/usage-limit-signal.js';
import { background } from '../background.js';
import { tryLock } from '../state/pid-lock.js';
import { ensureHome, readRegistry } from '../state/registry.js';
import { resolveSession } from '../state/resolve-session.js';
import { currentTaskCached } from '../state/session-summary.js';
import type { Attachment, Terminal, FrameSink } from '../terminals/terminal.js';
import { meantToRun } from './session/lifecycle.js';
import { initialRestartState } from './session/restart-policy.js';
import { interruptView, type InterruptView } from './resume/resume-plan.js';
import type { VerifyTarget } from './resume/resume-journal.js';
import type { SessionAdmin } from './session/session-admin.js';
import type { CheckpointPorts } from './checkpoints/checkpoint.js';
import { paneCensus } from './supervisor-startup.js';
import { buildParts, type SupervisorParts } from './supervisor-parts.js';
import type { ResumeContext, StartReport, SupervisorOptions } from './supervisor-options.js';
import { shutdownSessions } from './supervisor-shutdown.js';
import type { LimitReport } from './limits/usage-limits.js';
import type { HandoffRequest } from './resume/handoff.js';
import { sessionInfo } from './session/session-info.js';
import type { SessionRuntime } from './session/session-runtime.js';
import { attachView, notRunning } from './session/view-hub.js';

export type { ResumeContext, StartReport, SupervisorOptions } from './supervisor-options.js';
export { DEFAULT_SIZE } from './launch/agent-launcher.js';
export { NEAR_SLEEP_MS } from './exits/exit-handler.js';
export { START_STAGGER_MS } from './supervisor-parts.js';

/** The lock that keeps a second supervisor (another `mori up`, the app) off this Mori home. */
export const SUPERVISOR_LOCK = 'supervisor.lock';

/** A stop waits this long at most for a nudge being typed: its text shown (5 s) and taken (5 s), with headroom. */
const NUDGE_SETTLE_MS = 12_000;

export class Supervisor {
  readonly home: string;
  private readonly parts: SupervisorParts;
  /** Removing and renaming sessions (session-admin.ts). */
  readonly admin: SessionAdmin;
  /** What a checkpoint or a rollback asked of the daemon writes through: the store, and the one git limiter of this supervisor. */
  readonly checkpointPorts: CheckpointPorts;
  private releaseHome: (() => void) | null = null;

  constructor(options: SupervisorOptions = {}) {
    this.parts = buildParts(options);
    this.home = this.parts.home;
    this.admin = this.parts.admin;
    this.checkpointPorts = this.parts.checkpointPorts;
  }

  // ---------------------------------------------------------------- events

  on(listener: (e: SupervisorEvent) => void): () => void {
    return this.parts.events.on(listener);
  }

  /** Emits an event that happened outside the supervisor but belongs in its stream (power, network). */
  publish(e: SupervisorEvent): void {
    if (e.type === 'network.offline' || e.type === 'network.online') this.parts.machine.setOffline(e.type === 'network.offline');
    this.parts.events.emit(e);
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
    const { sessions, tmux, startup, limits } = this.parts;
    const wanted = new Set<string>();
    for (const ref of refs) {
      const dir = resolveSession(ref, process.cwd(), this.home);
      if (!dir.ok) return this.abortStart(dir);
      const registered = sessions.registered(dir.value);
      if (!registered.ok) return this.abortStart(registered);
      wanted.add(path.resolve(dir.value));
    }
    await this.parts.direct.sweepOrphans();
    const registry = readRegistry(this.home);
    if (!registry.ok) return this.abortStart(registry);
    const skipped: StartReport['skipped'] = [];
    for (const entry of registry.value) {
      const loaded = sessions.load(entry.stateDir);
      if (!loaded.ok) skipped.push({ stateDir: entry.stateDir, message: loaded.message });
    }
    for (const dir of wanted) {
      if (sessions.byStateDir(dir)) continue;
      const loaded = sessions.load(dir);
      if (!loaded.ok) return this.abortStart(loaded);
    }
    // What an earlier supervisor could not write and left on record (entries held, an intent) goes
    // first, before anything of this start: a resume's entry after the interruption it answers.
    for (const rt of sessions.all()) this.parts.store.adopt(rt);
    const census = paneCensus(tmux ? await tmux.list().catch(() => []) : []);
    const toStart = sessions.all().filter((rt) => (wanted.size > 0 ? wanted.has(path.resolve(rt.stateDir)) : meantToRun(rt.session) || census.alive.has(rt.id)));
    for (const rt of toStart) {
      const action = startup.action(rt, census);
      await limits.startUp(rt, action, () => startup.bringUp(rt, action, false), async () => tmux?.remove(rt.id));
    }
    // A session handed over at a limit goes back at its reset, kept across Mori's restarts (at once when it passed).
    for (const rt of toStart) this.parts.handBack.arm(rt);
    // Dead panes of sessions not meant to run (stopped, finished): nothing to resume, only to clear.
    for (const rt of sessions.all()) if (census.dead.has(rt.id) && !toStart.includes(rt)) await tmux?.remove(rt.id);
    this.parts.events.emit({ type: 'supervisor.ready', at: this.parts.clock.wallMs(), sessions: sessions.size, pid: process.pid });
    return ok({ sessions: this.list(), skipped });
  }

  // ---------------------------------------------------------------- requests

  /** Every session, each with its current task's first line (read again only when session_state.md changed). */
  list(): LiveSession[] {
    return this.parts.sessions.all().map((rt) => ({ ...sessionInfo(rt), task: currentTaskCached(rt.stateDir) }));
  }

  /** Starts (or restarts) a registered session on the person's request, even one they stopped or that finished. */
  async startSession(ref: string): Promise<Result<LiveSession>> {
    let found = this.parts.sessions.find(ref);
    if (!found.ok && found.code === 'not-found') found = this.loadRegistered(ref);
    if (!found.ok) return found;
    const rt = found.value;
    if (rt.terminal) return ok(sessionInfo(rt));
    rt.timers.clear('retry', 'limit');
    rt.resetForStart(initialRestartState());
    this.parts.store.write(rt, (s) => ({ ...s, failedResume: null, restartHistory: [], usageLimit: null }));
    const { tmux, startup } = this.parts;
    const panes = tmux ? (await tmux.list().catch(() => [])).filter((p) => p.id === rt.id) : [];
    // A dead pane left over is not this start's business: the person wants the agent running again.
    if (panes.some((p) => !p.alive)) await tmux?.remove(rt.id);
    await startup.bringUp(rt, startup.action(rt, paneCensus(panes.filter((p) => p.alive))), true);
    return ok(sessionInfo(rt));
  }

  /** The person stops a session: the agent's whole process group is ended, and it is never auto-resumed. */
  stopSession(ref: string): Promise<Result<LiveSession>> {
    return this.parts.stop(ref);
  }

  /** Hands the session to an agent of another profile (resume/handoff.ts): the old one ended, the new one started fresh. */
  async handOff(ref: string, req: HandoffRequest): Promise<Result<LiveSession>> {
    return this.parts.sessions.withSession(ref, async (rt): Promise<Result<LiveSession>> => {
      const r = await this.parts.handoff.handOff(rt, req);
      return r.ok ? ok(sessionInfo(rt)) : r;
    });
  }

  /**
   * Types text into the agent's terminal. With Enter (the default) it is delivered as the profile's
   * typing rules say and confirmed taken; without, it is written as is (keys for the agent to read).
   */
  async send(ref: string, text: string, enter = true): Promise<Result<{ chars: number }>> {
    return this.parts.sessions.withSession(ref, async (rt): Promise<Result<{ chars: number }>> => {
      if (!rt.terminal) return notRunning(rt);
      const outcome = await this.parts.typist.type(rt, text, 'send', enter);
      if (outcome.kind === 'submitted') return ok({ chars: text.length });
      if (outcome.kind === 'agent-retrying') return fail('failed', `session "${rt.name}": the agent is retrying a request by itself; nothing was typed (send again once it is done)`);
      // A send is never refused for a working agent (only a nudge is): not met here.
      if (outcome.kind === 'agent-working') return fail('failed', `session "${rt.name}": the agent is working; nothing was typed`);
      // A send stands whatever happens to the session meanwhile (it gives no inCharge): not met here.
      if (outcome.kind === 'withdrawn') return fail('failed', `session "${rt.name}": nothing was typed`);
      return fail('failed', `session "${rt.name}": the text was not taken: ${outcome.why}`);
    });
  }

  /** A source (the screen, the agent's hook, its transcript) says the session's agent hit its usage limit. */
  reportUsageLimit(ref: string, signal: UsageLimitSignal): Result<LimitReport> {
    return this.parts.sessions.withSession(ref, (rt) => ok(this.parts.limits.report(rt, signal)));
  }

  /** The person's choice at a usage limit: resume now (also once stopped at it), or not at all (stopped at it). */
  async limitChoice(ref: string, choice: 'resume-now' | 'dont-resume'): Promise<Result<LiveSession>> {
    return this.parts.sessions.withSession(ref, async (rt): Promise<Result<LiveSession>> => {
      const r = choice === 'resume-now' ? await this.parts.limits.resumeNow(rt) : this.parts.limits.dontResume(rt);
      return !r.ok ? r : choice === 'dont-resume' ? this.stopSession(ref) : ok(sessionInfo(rt));
    });
  }

  /** Connects a view to the session's terminal; `onEnd` is told when the terminal goes away. */
  attach(ref: string, view: FrameSink, onEnd: (reason: string) => void, holding = true): Result<{ attachment: Attachment; terminal: Terminal; info: LiveSession }> {
    return this.parts.sessions.withSession(ref, (rt) => {
      const r = attachView(rt, view, onEnd, holding);
      return r.ok ? ok({ ...r.value, info: sessionInfo(rt) }) : r;
    });
  }

  /** Loads a session (one just created by `session.init`) so list() shows it, without starting it. */
  loadSession(ref: string): Result<LiveSession> {
    const found = this.parts.sessions.find(ref);
    const loaded = found.ok ? found : this.loadRegistered(ref);
    if (loaded.ok && !found.ok) this.announceRegistered(loaded.value);
    return loaded.ok ? ok(sessionInfo(loaded.value)) : loaded;
  }

  /**
   * Loads every registered session not loaded yet (registered by `mori init` while this supervisor
   * runs), starting none: a launch comes only from the person's `start`. Each is announced with
   * `session.registered`; those that cannot be loaded are returned with the reason.
   */
  loadNewlyRegistered(): Result<{ loaded: LiveSession[]; skipped: StartReport['skipped'] }> {
    const registry = readRegistry(this.home);
    if (!registry.ok) return registry;
    const { sessions } = this.parts;
    const loaded: LiveSession[] = [];
    const skipped: StartReport['skipped'] = [];
    for (const entry of registry.value) {
      // Loaded already, or being removed or renamed (its entry is about to change).
      if (sessions.find(entry.id).ok || sessions.isHeld(entry.id)) continue;
      const r = sessions.load(entry.stateDir);
      if (!r.ok) skipped.push({ stateDir: entry.stateDir, message: r.message });
      else {
        this.announceRegistered(r.value);
        loaded.push(sessionInfo(r.value));
      }
    }
    return ok({ loaded, skipped });
  }

  /**
   * Verifies a session on request (`checks.verify`), announced as the resume path announces its own
   * (verify.started, verify.finished); a loaded session's info() then shows the results.
   */
  verifyChecks(target: VerifyTarget, restartServices: boolean): Promise<Result<VerifyReport>> {
    return this.parts.journal.verify(target, restartServices);
  }

  /** Every session as a suspend, a wake or a network change sees it (the interruption orchestrator). */
  interruptViews(): InterruptView[] {
    return this.parts.sessions.all().map((rt) => interruptView(rt, this.parts.env));
  }

  /** The machine is going to sleep (true) or woke (false); exits near a sleep are not crashes. */
  setAsleep(asleep: boolean): void {
    this.parts.machine.setAsleep(asleep, this.parts.clock.monoMs());
    if (!asleep) this.parts.limits.woke();
  }

  /** Records an interruption of a running session (sleep, network): checkpoint, log, intent. */
  interruptSession(ref: string, reason: InterruptReason): Result<LiveSession> {
    return this.parts.sessions.withSession(ref, (rt) => {
      if (rt.state !== 'running') return ok(sessionInfo(rt));
      background(this.parts.checkpoints.take(rt, reason === 'sleep' ? 'suspend' : `interrupted (${reason})`), `checkpointing ${rt.name}`);
      this.parts.moves.interrupt(rt, reason);
      return ok(sessionInfo(rt));
    });
  }

  /** Resolves once every checkpoint begun so far (a suspend's, above all) is on disk. */
  checkpointsSettled(): Promise<void> {
    return this.parts.checkpoints.settled();
  }

  /**
   * Resumes an interrupted session through the one resume path (resume-controller.ts): verify
   * (unless `context.checks` says it was), then relaunch, nudge, restart or leave it, as found.
   */
  async resumeSession(ref: string, reason: InterruptReason, context: ResumeContext | null = null): Promise<Result<LiveSession>> {
    return this.parts.sessions.withSession(ref, async (rt) => {
      // The work tree as the interruption left it, recorded as the resume begins (not awaited: git never delays a
      // resume); on the next turn of the loop, so a wake's checks all start before the git spawns.
      if (rt.terminal !== null) setImmediate(() => background(this.parts.checkpoints.take(rt, 'before resume'), `checkpointing ${rt.name}`));
      // At a usage limit: resumed only once its time has come (a wake through it), as the limit's one resume.
      await (rt.state === 'limited' ? this.parts.limits.resumeIfDue(rt, context) : this.parts.resumer.resume(rt, reason, context));
      return ok(sessionInfo(rt));
    });
  }

  /**
   * Stops supervising: checkpoints and logs every running session, leaves tmux sessions running
   * (the next supervisor re-attaches them), ends direct ones cleanly, releases the locks.
   */
  async shutdown(): Promise<void> {
    if (!this.parts.machine.beginShutdown()) return;
    await Promise.all([this.parts.resumer.nudgesSettled(NUDGE_SETTLE_MS), this.parts.errors.nudgesSettled(NUDGE_SETTLE_MS)]);
    await shutdownSessions({ store: this.parts.store, moves: this.parts.moves, emit: (e) => this.parts.events.emit(e), exits: this.parts.exits, checkpoints: this.parts.checkpoints }, this.parts.sessions.all());
    await this.parts.queue.close();
    this.parts.hooks.dispose();
    this.parts.sessions.release(false);
    this.releaseHomeLock();
  }

  /** Loads the registered session `ref` names (a name, id or state dir resolved as the CLI does). */
  private loadRegistered(ref: string): Result<SessionRuntime> {
    const dir = resolveSession(ref, process.cwd(), this.home);
    if (!dir.ok) return dir;
    const registered = this.parts.sessions.registered(dir.value);
    return registered.ok ? this.parts.sessions.load(dir.value) : registered;
  }

  private announceRegistered(rt: SessionRuntime): void {
    this.parts.events.emit({ type: 'session.registered', at: this.parts.clock.wallMs(), sessionId: rt.id, name: rt.name });
  }

  private releaseHomeLock(): void {
    this.releaseHome?.();
    this.releaseHome = null;
  }

  /** A start that failed half-way lets go of everything it took, and says why. */
  private abortStart(failure: Failure): Failure {
    this.parts.sessions.release(true);
    this.releaseHomeLock();
    return failure;
  }
}
