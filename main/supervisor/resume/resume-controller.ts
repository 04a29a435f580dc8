// The one resume path (DESIGN.md §4, "Resume action"), whatever interrupted the session: a crash
// after its backoff, a wake, the network coming back, a reboot or Mori restarting, the person's
// start. interrupted → verifying (checks run, trusted services restarted) → resuming → running, with
// the action decideResumeAction picks: a dead agent is relaunched (its resume command and id, or
// fresh; never the same failed resume twice); a live one that works is left alone; one that waits or
// shows an error is nudged; one still in error after a nudge, or long after the wake, is restarted
// with its resume command. Runs in the supervisor's process.
import { nudgeWithNotice, rollbackNoticeCleared, type RollbackNotice } from './rollback-notice.js';
import { nudgeCleared, nudgeMarked, nudgeTakenBefore, nudgeTyped } from './nudge-record.js';
import type { InterruptReason } from '../../../common/session.js';
import { background } from '../../background.js';
import { isRetrying } from '../../agents/typing.js';
import type { AgentLauncher } from '../launch/agent-launcher.js';
import type { ExitHandler } from '../exits/exit-handler.js';
import { planRelaunchLaunch } from './launch-plan.js';
import type { ResumeJournal } from './resume-journal.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { MachineState } from '../session/machine-state.js';
import type { ResumeContext } from '../session/resume-context.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { Typist } from '../typing/typed-input.js';
import type { Env } from '../../agents/profile.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import { decideResumeAction, planResume, STUCK_AFTER_WAKE_MS } from './resume-plan.js';
import { closeLimitDialog } from '../limits/limit-dialog-close.js';
import { showsLimit } from '../limits/screen-limit-watch.js';
import type { ContextUsageSource, ResumeDefaults } from './resume-choice.js';

/** An agent left to retry by itself is looked at again this often, to nudge it once its retries ran out. */
const RETRY_RECHECK_MS = 5_000;

export interface ResumeOptions {
  /** The person asked (mori start, the UI): a session they stopped resumes too. */
  asked?: boolean;
  /** A limited agent was seen at work past its reset: it continued by itself, so nothing is typed. */
  continuedByItself?: boolean;
  /** A second look after a resume already said (its retries ran out, still stuck): what it does is noted, not said as another resume. */
  followUp?: boolean;
}

/** What the resume path uses. */
export interface ResumeControllerPorts {
  home: string;
  env: Env;
  clock: PowerClock;
  scheduler: Scheduler;
  machine: Readonly<MachineState>;
  store: Pick<SessionStore, 'write' | 'log' | 'reload' | 'update'>;
  moves: Pick<SessionTransitions, 'move' | 'interrupt'>;
  /** Verify the environment before every resume (default true). */
  verify?: boolean | undefined;
  /** A nudged agent still in error this long after is restarted (default STUCK_AFTER_WAKE_MS). */
  stuckAfterWakeMs?: number | undefined;
  launcher: Pick<AgentLauncher, 'launch' | 'ids'>;
  exits: Pick<ExitHandler, 'detach'>;
  journal: Pick<ResumeJournal, 'verify' | 'resuming' | 'resumed'>;
  typist: Pick<Typist, 'type'>;
  /** The resume policy's defaults and where a conversation's size is read (resume-choice.ts). */
  resumePolicy?: { defaults?: ResumeDefaults | undefined; contextUsage?: ContextUsageSource | undefined } | undefined;
}

export class ResumeController {
  /** Nudges being typed now: a stop waits for them, so one the agent took is said before the supervisor goes. */
  private readonly nudging = new Set<Promise<void>>();

  constructor(private readonly ports: ResumeControllerPorts) {}

  /**
   * Resolves once every nudge being typed has ended (each is bounded by its typing's own deadlines),
   * or after `boundMs`. A supervisor that stopped mid-nudge left the agent's input typed but unsaid:
   * the next one, finding the agent still running after the sleep, typed it again.
   */
  async nudgesSettled(boundMs: number): Promise<void> {
    if (this.nudging.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.nudging]), new Promise<void>((r) => (timer = setTimeout(r, boundMs)))]);
    clearTimeout(timer);
  }

  async resume(rt: SessionRuntime, reason: InterruptReason, context: ResumeContext | null, options: ResumeOptions = {}): Promise<void> {
    const { ports } = this;
    const plan = planResume({
      asked: options.asked ?? false,
      stopping: rt.stopping,
      intent: rt.session.intent.kind,
      agentRunning: rt.terminal !== null,
      verifyEnabled: ports.verify ?? true,
      // A follow-up acts on what the resume before it verified.
      checksGiven: (context?.checks ?? null) !== null || options.followUp === true,
    });
    if (plan.kind === 'skip') return;
    const gen = rt.takeCharge();
    rt.timers.clear('retry');
    rt.cancelRetry();
    if (plan.recordInterruption) ports.moves.interrupt(rt, reason);
    let checks = context?.checks ?? null;
    if (plan.verify) {
      checks = await this.verify(rt, context?.signal);
      if (gen !== rt.generation || ports.machine.shuttingDown) return;
      if (context?.signal?.aborted) {
        // Slept or went offline again meanwhile: interrupted still; the next wake resumes it.
        ports.moves.move(rt, 'interrupt');
        return;
      }
    }
    const resumed: ResumeContext = { awayMs: context?.awayMs ?? null, checks };
    const run = rt.run;
    const followUp = options.followUp === true;
    if (run === null) return this.relaunch(rt, reason, resumed, gen, null, followUp);
    if (reason === 'usage-limit') {
      const live = (): boolean => gen === rt.generation && rt.run === run && !ports.machine.shuttingDown;
      if (options.continuedByItself === true) {
        if (!ports.moves.move(rt, 'resume')) return;
        this.ports.journal.resuming(rt, run.launch);
        return this.resumed(rt, reason, resumed, 'the agent continued by itself after its reset: nothing typed');
      }
      // At its prompt with its limit line gone, the agent went on by itself (opencode retries at the
      // reset on its own and answers): a nudge would only cost a turn.
      const screen = rt.activity === 'waiting' ? await run.terminal.screenText().catch(() => null) : null;
      if (!live()) return;
      if (screen !== null && rt.activity === 'waiting' && !showsLimit(rt.profile.name, rt.profile.patterns, screen)) {
        if (!ports.moves.move(rt, 'resume')) return;
        this.ports.journal.resuming(rt, run.launch);
        return this.resumed(rt, reason, resumed, 'the agent went on by itself past its limit (at its prompt, its limit line gone): nothing typed');
      }
      // An agent still showing its limit dialog takes no nudge: closed first, then looked at again.
      await closeLimitDialog(rt, { scheduler: ports.scheduler, store: ports.store }, live);
      if (!live()) return;
    }
    const sinceWake = ports.machine.lastWakeAt === null ? 0 : ports.clock.monoMs() - ports.machine.lastWakeAt;
    const stuckAfter = ports.stuckAfterWakeMs ?? STUCK_AFTER_WAKE_MS;
    const action = decideResumeAction(
      { id: rt.id, state: rt.state, alive: true, activity: rt.activity, needsNetwork: true, userStopped: false },
      sinceWake,
      run.nudgedAt !== null,
      stuckAfter,
    );
    if (action.kind === 'restart' || action.kind === 'relaunch') return this.restartAgent(rt, reason, resumed, gen, action.why, followUp);
    const nudge = action.kind === 'nudge' ? nudgeWithNotice(rt) : null;
    const tookEarlier = rt.session.nudgeTyped !== null && (await this.earlierNudgeTaken(rt, reason, nudge?.text ?? null));
    if (gen !== rt.generation || rt.run !== run || ports.machine.shuttingDown) return;
    if (!ports.moves.move(rt, 'resume')) return;
    this.ports.journal.resuming(rt, run.launch, followUp);
    if (tookEarlier) return this.resumed(rt, reason, resumed, `agent still running, ${rt.activity}: the nudge typed before the supervisor stopped was taken: nothing typed`, followUp);
    if (action.kind === 'nudge') {
      // The action is issued here; its confirmation (the agent echoes the text and goes busy) takes
      // the agent's own time, so it goes on beside the next session's resume, not in front of it.
      if (nudge !== null) {
        const typing = this.nudge(rt, reason, resumed, gen, nudge.text, stuckAfter, nudge.notice, followUp);
        this.nudging.add(typing);
        void typing.finally(() => this.nudging.delete(typing)).catch(() => undefined);
        return background(typing, `nudging ${rt.name}`);
      }
    }
    let what = `agent still running (${rt.activity})`;
    if (action.kind !== 'nudge' && rt.activity === 'working' && isRetrying(await run.terminal.screenText().catch(() => ''), rt.profile.typing)) {
      if (gen !== rt.generation || rt.run !== run || ports.machine.shuttingDown) return;
      what = 'agent still running, retrying a request by itself: left to it';
      this.watchRetrying(rt, reason);
    }
    this.resumed(rt, reason, resumed, what, followUp);
  }

  /** Types the nudge and acts on what came of it: resumed, left to its own retries, or restarted. */
  private async nudge(rt: SessionRuntime, reason: InterruptReason, resumed: ResumeContext, gen: number, text: string, stuckAfter: number, notice: RollbackNotice | null, followUp: boolean): Promise<void> {
    const { ports } = this;
    const run = rt.run;
    const activity = rt.activity;
    // On record before the text is typed: a supervisor killed before it saw the agent take it leaves
    // the next one what it needs to tell whether to type it again (nudge-record.ts).
    const mark = run === null ? null : await nudgeTyped(reason, run.terminal.pid, ports.clock.wallMs());
    if (mark !== null) ports.store.write(rt, nudgeMarked(mark));
    // Typed only while this resume is still in charge: a usage limit met meanwhile (its own resume
    // comes after the reset), a stop, or another resume takes it over, and the nudge is withdrawn.
    const outcome = await ports.typist.type(rt, text, 'nudge', true, () => gen === rt.generation && rt.run === run);
    if (run !== null && rt.run === run && ports.machine.shuttingDown && outcome.kind === 'submitted') {
      // The supervisor began to stop while the nudge was being typed, and the agent took it: said and
      // kept, so the next supervisor (which finds this agent still running) does not nudge it again.
      ports.store.write(rt, (s) => {
        const cleared = nudgeCleared(mark ?? undefined)(s);
        return cleared.intent.kind === 'interrupted' && cleared.intent.reason === reason ? { ...cleared, intent: { kind: 'running' } } : cleared;
      });
      this.ports.journal.resumed(rt, reason, resumed, `agent still running, ${activity}: nudged to continue as the supervisor stopped`, run.launch, () => false, followUp);
      return;
    }
    if (run === null || gen !== rt.generation || rt.run !== run || ports.machine.shuttingDown) {
      // This resume ends here; one that goes on clears the record as it is said (resumed, relaunch).
      if (mark !== null) ports.store.write(rt, nudgeCleared(mark));
      return;
    }
    if (outcome.kind === 'not-submitted') {
      return this.restartAgent(rt, reason, resumed, gen, `agent still running, ${activity}, but the nudge was not taken (${outcome.why})`, followUp);
    }
    if (outcome.kind === 'agent-working') {
      // Its screen, read as the nudge was about to be typed, shows a turn under way (one begun by
      // itself after the wake, or one the last reading missed): it goes on, nothing typed.
      return this.resumed(rt, reason, resumed, 'agent still running, working by itself: nothing typed', followUp);
    }
    if (outcome.kind === 'agent-retrying') {
      this.watchRetrying(rt, reason);
      return this.resumed(rt, reason, resumed, 'agent still running, retrying a request by itself: left to it', followUp);
    }
    if (notice !== null) this.clearNotice(rt, notice);
    run.markNudged(ports.clock.monoMs());
    this.watchForStuck(rt, reason, stuckAfter);
    this.resumed(rt, reason, resumed, `agent still running, ${activity}: nudged to continue`, followUp);
  }

  /**
   * Whether a nudge an earlier supervisor typed for this interruption, into this same agent process,
   * was taken (nudge-record.ts); `text` is the nudge this resume would type (null: none). A record
   * that does not hold is cleared: this resume types its own.
   */
  private async earlierNudgeTaken(rt: SessionRuntime, reason: InterruptReason, text: string | null): Promise<boolean> {
    // An agent back at its error after taking it failed again: the nudge is for that new failure.
    const taken = text !== null && rt.activity !== 'error' && (await nudgeTakenBefore(rt, reason, this.ports.env, text));
    if (!taken) this.ports.store.write(rt, nudgeCleared());
    return taken;
  }

  /** The live agent goes on: intent running (a nudge on record cleared), the SESSION RESUMED entry, `session.resumed`. */
  private resumed(rt: SessionRuntime, reason: InterruptReason, resumed: ResumeContext, what: string, followUp = false): void {
    const { ports } = this;
    const run = rt.run;
    if (run === null) return;
    ports.store.write(rt, (s) => ({ ...s, intent: { kind: 'running' }, nudgeTyped: null }));
    this.ports.journal.resumed(rt, reason, resumed, what, run.launch, () => ports.moves.move(rt, 'ran'), followUp);
  }

  /** Verifies the environment; the summary for the log and the prompt, or what went wrong. */
  private async verify(rt: SessionRuntime, signal: AbortSignal | undefined): Promise<string> {
    const { ports } = this;
    if (!ports.moves.move(rt, 'verify')) return 'not verified';
    const v = await this.ports.journal.verify({ sessionId: rt.id, name: rt.name, stateDir: rt.stateDir }, true, signal);
    return v.ok ? v.value.summary : `verification failed: ${v.message}`;
  }

  /** A dead agent: its resume command and id when its record exists, else fresh with the full prompt. */
  private async relaunch(rt: SessionRuntime, reason: InterruptReason, context: ResumeContext, gen: number, restartedBecause: string | null = null, followUp = false): Promise<void> {
    const { ports } = this;
    ports.store.reload(rt);
    // A nudge on record went into an agent that is gone: this resume ends in a new one.
    if (rt.session.nudgeTyped !== null) ports.store.write(rt, nudgeCleared());
    // A crash can come before the poll saw the agent's id: one last look, or the resume is lost.
    await this.ports.launcher.ids.discover(rt);
    if (gen !== rt.generation || ports.machine.shuttingDown) return;
    const plan = await planRelaunchLaunch({
      profile: rt.profile,
      home: ports.home,
      stateDir: rt.stateDir,
      session: rt.session,
      reason,
      awayMs: context.awayMs,
      env: ports.env,
      failedResume: rt.failedResume,
      resumeDefaults: ports.resumePolicy?.defaults,
      contextUsage: ports.resumePolicy?.contextUsage,
    });
    if (plan.ok && plan.value.delivers !== undefined) this.clearNotice(rt, plan.value.delivers);
    if (gen !== rt.generation || ports.machine.shuttingDown) return;
    await this.ports.launcher.launch(rt, plan, { reason, context, gen, restartedBecause, followUp });
  }

  /** The rollback note was delivered: cleared from session.json (a failure leaves it for the next prompt). */
  private clearNotice(rt: SessionRuntime, notice: RollbackNotice): void {
    background(this.ports.store.update(rt.stateDir, rollbackNoticeCleared(notice)), `clearing the rollback note of ${rt.name}`);
  }

  /** Restarts a live agent that a resume cannot move (stuck, or a nudge not taken) with its resume command. */
  private async restartAgent(rt: SessionRuntime, reason: InterruptReason, resumed: ResumeContext, gen: number, why: string, followUp: boolean): Promise<void> {
    const { ports } = this;
    const run = rt.run;
    if (run === null) return this.relaunch(rt, reason, resumed, gen, null, followUp);
    const t = run.terminal;
    this.ports.exits.detach(rt, 'the agent is restarted');
    await t.kill().catch((err: unknown) => ports.store.log(rt, `SESSION NOTE - the stuck agent could not be ended: ${String(err)}`));
    background(t.dispose(), `releasing the terminal of ${rt.name}`);
    if (gen !== rt.generation || ports.machine.shuttingDown) return;
    // The relaunch writes the one SESSION RESUMED entry, saying why the agent was restarted.
    return this.relaunch(rt, reason, resumed, gen, why, followUp);
  }

  /**
   * An agent retrying a request by itself is left to it; once its retry countdown is gone, one that
   * waits or shows an error (its retries ran out) is resumed again, which nudges it.
   */
  private watchRetrying(rt: SessionRuntime, reason: InterruptReason): void {
    const run = rt.run;
    rt.timers.set(
      'stuck',
      this.ports.scheduler.after(RETRY_RECHECK_MS, () => {
        rt.timers.fired('stuck');
        if (rt.run !== run || run === null || this.ports.machine.shuttingDown) return;
        background(
          run.terminal.screenText().then((screen) => {
            if (rt.run !== run || this.ports.machine.shuttingDown) return;
            if (isRetrying(screen, rt.profile.typing)) return this.watchRetrying(rt, reason);
            if (rt.activity === 'error' || rt.activity === 'waiting') background(this.resume(rt, reason, null, { followUp: true }), `nudging ${rt.name} after its retries`);
          }),
          `watching ${rt.name} retry by itself`,
        );
      }),
    );
  }

  /**
   * After a nudge, an agent that still shows an error once `afterMs` has passed (a connection that
   * never came back) is resumed again, which restarts it. Progress clears it.
   */
  private watchForStuck(rt: SessionRuntime, reason: InterruptReason, afterMs: number): void {
    const run = rt.run;
    rt.timers.set(
      'stuck',
      this.ports.scheduler.after(afterMs, () => {
        rt.timers.fired('stuck');
        if (rt.run !== run || run === null || this.ports.machine.shuttingDown) return;
        if (rt.activity !== 'error') {
          run.clearNudge();
          return;
        }
        background(this.resume(rt, reason, null, { followUp: true }), `restarting the stuck agent of ${rt.name}`);
      }),
    );
  }
}
