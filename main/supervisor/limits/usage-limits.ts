// A session at its agent's usage limit (DESIGN.md §4, "Usage limits"): a signal from any source (the
// screen, the agent's hook, its transcript) moves it to `limited` with a plan kept in session.json
// (limit-plan.ts says when it resumes); at that time it resumes exactly once through the one resume
// path (nudged at its prompt, left alone when it went on by itself, relaunched by id when not
// running). The plan outlives a restart of Mori or a reboot (restore); a wake re-arms it, or leaves a
// passed one to the wake's own resume. The person may resume it now, or not at all. A limit is never
// a crash: the restart policy never hears of it. Runs in the supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';
import { fail, ok, type Result } from '../../../common/result.js';
import type { UsageLimitPlan } from '../../../common/session.js';
import { clockWords } from '../../../common/session-view.js';
import type { Env } from '../../agents/profile.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';
import { background } from '../../background.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import { atWallTime } from '../../power/long-timer.js';
import { Emitter } from '../session/emitter.js';
import type { StartAction } from '../session/lifecycle.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { MachineState } from '../session/machine-state.js';
import type { ResumeContext } from '../session/resume-context.js';
import { type JitterSlot, LIMIT_AGAIN_WINDOW_MS, LIMIT_JITTER_MS, LIMIT_MAX_RESET_AHEAD_MS, planLimit, plausibleReset } from './limit-plan.js';
import { transcriptAnsweredSince } from './transcript-limit-watch.js';

/** What waiting out usage limits uses. */
export interface UsageLimitsPorts {
  clock: PowerClock;
  scheduler: Scheduler;
  random: () => number;
  /** The longest jitter after a reset (default LIMIT_JITTER_MS). */
  jitterMs?: number | undefined;
  /** The jitter slot taken, first or last, instead of a random one (tests only: MORI_LIMIT_JITTER_SLOT). */
  jitterSlot?: JitterSlot | undefined;
  machine: Readonly<MachineState>;
  /** The agents' environment, where their records are (read once at a planned resume); none: not read. */
  env?: Env | undefined;
  store: Pick<SessionStore, 'write' | 'log'>;
  moves: Pick<SessionTransitions, 'move' | 'base'>;
  emit(e: SupervisorEvent): void;
  /** Every session of this supervisor (for the other sessions' planned resumes). */
  sessions(): readonly SessionRuntime[];
}

/** How a limit's one resume goes: `asked`, the person resumes it; `continuedByItself`, nothing is typed. */
export interface LimitResume {
  asked: boolean;
  continuedByItself: boolean;
}

/** What came of a signal. */
export type LimitReport = 'limited' | 'refined' | 'same-limit' | 'not-running';

/** "usage limit, resumes 00:50" / "usage limit, no reset time given; retrying 01:15": the work log's words. */
export function limitLogWords(plan: UsageLimitPlan): string {
  return plan.resetAt !== null ? `usage limit, resumes ${clockWords(plan.resumeAt)}` : `usage limit, no reset time given; retrying ${clockWords(plan.resumeAt)}`;
}

/** The reset rule reads a clock time passed over 15 minutes ago as the next calendar day's. */
const DAY_MS = 24 * 60 * 60_000;
/** A calendar day across a daylight-saving change is 23 or 25 hours. */
const DST_SLACK_MS = 60 * 60_000;

export class UsageLimits {
  private readonly resumeDue = new Emitter<[rt: SessionRuntime, context: ResumeContext | null, how: LimitResume], Promise<void>>();
  /** A limited session's one resume is due: the resume path (resume-controller.ts) resumes it. */
  readonly onResumeDue = this.resumeDue.event;
  /**
   * Per session id: when it last resumed from a limit, that limit's retries (the backoff streak), and
   * the reset and words it named (so its line, redrawn on screen after the agent went on, is known).
   */
  private readonly lastResume = new Map<string, { at: number; retries: number; resetAt: number | null; text: string }>();
  /** Per session id: the limit (its detectedAt) whose implausible reset was noted, so a line redrawn is noted once. */
  private readonly notedImplausible = new Map<string, number>();

  constructor(private readonly ports: UsageLimitsPorts) {}

  /** A source says the session's agent hit its usage limit. */
  report(rt: SessionRuntime, named: UsageLimitSignal): LimitReport {
    const { ports } = this;
    const state = rt.state;
    if (ports.machine.shuttingDown || state === 'idle' || state === 'stopped' || state === 'finished' || state === 'attention') return 'not-running';
    const now = ports.clock.wallMs();
    // A reset further than any CLI's window (a forged or misread line) counts as none given.
    const resetAtMs = plausibleReset(named.resetAtMs, now);
    const signal = resetAtMs === named.resetAtMs ? named : { ...named, resetAtMs };
    const implausible = signal === named ? '' : `; its reset ${new Date(named.resetAtMs ?? 0).toISOString()} is implausible, over ${LIMIT_MAX_RESET_AHEAD_MS / 86_400_000} days away`;
    const current = rt.session.usageLimit;
    if (state === 'limited' && current !== null) {
      if (implausible !== '') this.noteImplausible(rt, current, named);
      // The first source wins; a later one only refines the reset time.
      if (signal.resetAtMs === null || signal.resetAtMs === current.resetAt) return 'same-limit';
      // The same source read again never puts the reset later: a relative reset ("It will reset in 2
      // minutes", opencode's retry line, redrawn every second with its countdown) re-read as the
      // clock moves would push the resume on for as long as it stays on screen.
      if (signal.source === current.source && current.resetAt !== null && signal.resetAtMs > current.resetAt) return 'same-limit';
      const refined = planLimit({ signal, now, retries: current.retries, jitterMs: this.jitterMs, others: this.othersPlanned(rt), random: ports.random, slot: ports.jitterSlot });
      this.record(rt, { ...refined, detectedAt: current.detectedAt, source: current.source, text: current.text }, 'reset time refined', 'refined');
      return 'refined';
    }
    if (this.alreadyResumed(rt, signal)) return 'same-limit';
    rt.takeCharge();
    rt.timers.clear('retry', 'stuck');
    rt.cancelRetry();
    rt.run?.clearNudge();
    const last = this.lastResume.get(rt.id);
    const retries = last !== undefined && now - last.at < LIMIT_AGAIN_WINDOW_MS ? last.retries + 1 : 0;
    const plan = planLimit({ signal, now, retries, jitterMs: this.jitterMs, others: this.othersPlanned(rt), random: ports.random, slot: ports.jitterSlot });
    ports.store.write(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason: 'usage-limit' } }));
    if (!ports.moves.move(rt, 'limit')) return 'not-running';
    this.record(rt, plan, `${plan.source}${implausible}`, 'new');
    return 'limited';
  }

  /**
   * At start, a session whose plan is still pending is limited again and waits for its time (an agent
   * relaunched before it would only meet the limit again). True when it was.
   */
  private restore(rt: SessionRuntime): boolean {
    const plan = rt.session.usageLimit;
    if (plan === null || rt.session.intent.kind !== 'interrupted') return false;
    if (!this.ports.moves.move(rt, 'limit')) return false;
    this.ports.store.log(rt, `SESSION LIMITED - ${limitLogWords(plan)} (kept from before Mori started)`);
    this.announce(rt, plan, 'restored');
    this.arm(rt);
    return true;
  }

  /** The machine woke: a plan still ahead is re-armed on the wall clock; one that passed is the wake's resume. */
  woke(): void {
    const now = this.ports.clock.wallMs();
    for (const rt of this.ports.sessions()) {
      const plan = rt.session.usageLimit;
      if (rt.state !== 'limited' || plan === null) continue;
      if (plan.resumeAt <= now) rt.timers.clear('limit');
      else this.arm(rt);
    }
  }

  /** A wake's resume of a limited session: its one resume when its time has passed, else nothing yet. */
  async resumeIfDue(rt: SessionRuntime, context: ResumeContext | null): Promise<void> {
    const plan = rt.session.usageLimit;
    if (rt.state === 'limited' && plan !== null && plan.resumeAt <= this.ports.clock.wallMs()) await this.resumeFromLimit(rt, context, false);
  }

  /**
   * At start: a pending limit holds the session (limited until its time, when its agent is relaunched
   * by id) instead of a relaunch now, which would only meet the limit again; an agent re-attached at
   * its limit is limited again. `bringUp` brings the session up as any other.
   */
  async startUp(rt: SessionRuntime, action: StartAction, bringUp: () => Promise<void>, removePane: () => Promise<unknown>): Promise<void> {
    if (action.kind === 'exited-while-down' && rt.session.usageLimit !== null) await removePane();
    if (action.kind !== 'reattach' && this.restore(rt)) return;
    await bringUp();
    if (action.kind === 'reattach' && rt.terminal !== null) this.restore(rt);
  }

  /** The person: resume now a session that waits out its limit, or one stopped at it. */
  async resumeNow(rt: SessionRuntime): Promise<Result<void>> {
    if (rt.session.usageLimit === null || (rt.state !== 'limited' && rt.state !== 'stopped')) return fail('conflict', `session "${rt.name}" is not at a usage limit`);
    await this.resumeFromLimit(rt, null, rt.state === 'stopped');
    return ok(undefined);
  }

  /** The person: no resume after this limit. The plan stays for the words ("stopped at usage limit"); the caller stops the session. */
  dontResume(rt: SessionRuntime): Result<void> {
    if (rt.state !== 'limited' || rt.session.usageLimit === null) return fail('conflict', `session "${rt.name}" is not at a usage limit`);
    rt.timers.clear('limit');
    this.ports.store.log(rt, 'SESSION NOTE - not resumed after its usage limit: the person chose so');
    return ok(undefined);
  }

  /**
   * The agent went to work while limited. Past its reset it continued by itself (Claude Code 2.1.332
   * sends the refused turn again on its own at the reset, with no new prompt, so its limit line stays
   * on screen): that is its one resume, with nothing typed, now rather than at the planned time.
   * Before the reset (or with none named) it is the limited turn's own end, and changes nothing.
   */
  agentWorking(rt: SessionRuntime): void {
    const plan = rt.session.usageLimit;
    if (rt.state !== 'limited' || plan === null || plan.resetAt === null || rt.run === null) return;
    if (this.ports.clock.wallMs() < plan.resetAt || this.ports.machine.asleep || this.ports.machine.shuttingDown) return;
    background(this.resumeFromLimit(rt, null, false, true), `noting that ${rt.name} continued by itself after its usage limit`);
  }

  /** The one resume after a limit: the plan is cleared first, so nothing resumes it a second time. */
  async resumeFromLimit(rt: SessionRuntime, context: ResumeContext | null, asked: boolean, continuedByItself = false): Promise<void> {
    const plan = rt.session.usageLimit;
    if (plan === null) return;
    rt.timers.clear('limit');
    this.lastResume.set(rt.id, { at: this.ports.clock.wallMs(), retries: plan.retries, resetAt: plan.resetAt, text: plan.text });
    this.ports.store.write(rt, (s) => ({ ...s, usageLimit: null }));
    await Promise.all(this.resumeDue.fire(rt, context, { asked, continuedByItself }));
  }

  /** Replaced, resumed, stopped meanwhile, or asleep (the wake decides): not this plan's resume. */
  private stillPlanned(rt: SessionRuntime, plan: UsageLimitPlan): boolean {
    const now = rt.session.usageLimit;
    return rt.state === 'limited' && now?.resumeAt === plan.resumeAt && now.detectedAt === plan.detectedAt && !this.ports.machine.asleep && !this.ports.machine.shuttingDown;
  }

  /**
   * The planned time came. The agent's own record is read once: an answer in it stamped after the
   * reset means it continued by itself (its activity may not have shown it: hooks only, a redraw
   * missed), so that is the one resume, with nothing typed. Else the resume as planned.
   */
  private async resumeAtItsTime(rt: SessionRuntime, plan: UsageLimitPlan): Promise<void> {
    const agent = rt.session.agent;
    const env = this.ports.env;
    const input = { profile: rt.profile.name, env: env ?? {}, agentSessionId: agent.sessionId, cwd: agent.cwd ?? rt.projectDir, nowMs: this.ports.clock.wallMs() };
    const continued = env !== undefined && plan.resetAt !== null && rt.run !== null && (await transcriptAnsweredSince(input, plan.resetAt));
    if (!this.stillPlanned(rt, plan)) return;
    await this.resumeFromLimit(rt, null, false, continued);
  }

  /**
   * Whether a signal is the limit this session already resumed from, read again: its line stays on
   * screen when the agent went on by itself (Claude Code sends the refused turn again with no new
   * prompt) and is reported anew when the CLI redraws the screen. It names the reset already passed
   * (or an earlier one), or, read more than 15 minutes on, the same words at the clock time the reset
   * rule puts a calendar day later. Only for a limit that named its reset: one that named none is
   * met again with the same words, and a limit met again names a later reset.
   */
  private alreadyResumed(rt: SessionRuntime, signal: UsageLimitSignal): boolean {
    const last = this.lastResume.get(rt.id);
    if (last === undefined || last.resetAt === null || signal.resetAtMs === null) return false;
    if (signal.resetAtMs <= last.resetAt) return true;
    return signal.text === last.text && Math.abs(signal.resetAtMs - last.resetAt - DAY_MS) <= DST_SLACK_MS;
  }

  /** A reset too far ahead, named for a session already limited, is ignored: the work log says so once per limit. */
  private noteImplausible(rt: SessionRuntime, current: UsageLimitPlan, named: UsageLimitSignal): void {
    if (this.notedImplausible.get(rt.id) === current.detectedAt) return;
    this.notedImplausible.set(rt.id, current.detectedAt);
    const days = LIMIT_MAX_RESET_AHEAD_MS / 86_400_000;
    this.ports.store.log(rt, `SESSION NOTE - a reset ${new Date(named.resetAtMs ?? 0).toISOString()} from the ${named.source} ignored: implausible, over ${days} days away (${limitLogWords(current)})`);
  }

  private get jitterMs(): number {
    return this.ports.jitterMs ?? LIMIT_JITTER_MS;
  }

  private othersPlanned(rt: SessionRuntime): number[] {
    return this.ports.sessions().flatMap((o) => (o !== rt && o.state === 'limited' && o.session.usageLimit ? [o.session.usageLimit.resumeAt] : []));
  }

  private record(rt: SessionRuntime, plan: UsageLimitPlan, note: string, news: 'new' | 'refined'): void {
    this.ports.store.write(rt, (s) => ({ ...s, usageLimit: plan }));
    this.ports.store.log(rt, `SESSION LIMITED - ${limitLogWords(plan)} (${note})`);
    this.announce(rt, plan, news);
    this.arm(rt);
  }

  private announce(rt: SessionRuntime, plan: UsageLimitPlan, news: 'new' | 'refined' | 'restored'): void {
    this.ports.emit({ type: 'session.limited', ...this.ports.moves.base(rt), plan, news });
  }

  /** The resume's timer, at the plan's time on the wall clock (however far: long-timer.ts). */
  private arm(rt: SessionRuntime): void {
    const { ports } = this;
    const plan = rt.session.usageLimit;
    if (plan === null) return;
    rt.timers.set(
      'limit',
      atWallTime(
        ports.clock,
        ports.scheduler,
        plan.resumeAt,
        () => {
          rt.timers.fired('limit');
          if (this.stillPlanned(rt, plan)) background(this.resumeAtItsTime(rt, plan), `resuming ${rt.name} after its usage limit`);
        },
        true,
      ),
    );
  }
}
