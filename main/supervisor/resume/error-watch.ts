// An agent left at its API error with nothing else to move it (DESIGN.md §4, "Resume action"): its
// own retries ran out while the machine's network answers (an API outage longer than the CLI's
// retries, a key or account the API refuses). Each running session's agent seen going to `error` is
// nudged after a grace, then again with a growing pause, through the one typing path; a series of
// nudges with no completed turn ends in attention(api-error), for the person. The count starts again
// when the agent completes a turn (working → waiting) or runs anew. It stays out of what has its own
// rule: a session not running (interrupted, verifying, resuming, limited, stopped…), a machine asleep
// or offline (the interruption's resume nudges then), a resume's own watch (the `stuck` timer), an
// agent retrying by itself, a supervisor stopping. Runs in the supervisor's process.
import type { AgentActivity } from '../../../common/agent-activity.js';
import { isRetrying } from '../../agents/typing.js';
import { background } from '../../background.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import type { MachineState } from '../session/machine-state.js';
import type { AgentRun, SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { Typist } from '../typing/typed-input.js';
import { formatDuration } from './resume-prompt.js';
import { nudgeWithNotice, rollbackNoticeCleared } from './rollback-notice.js';

const MINUTE = 60_000;

/**
 * The pause at the error before each nudge; the first is the grace. A minute first: the CLI may
 * still be about to retry by itself, the person may be at the keyboard, and a brief outage is over.
 * Then doubling, so an outage of minutes is met within minutes while one of an hour costs a few
 * nudges, not one a minute; capped at 30 min. Six in all span about an hour (1+2+4+8+16+30 = 61 min):
 * an API outage that long is rare, while an invalid key or an account problem never ends by itself.
 */
export const API_ERROR_NUDGE_MS: readonly number[] = [1, 2, 4, 8, 16, 30].map((m) => m * MINUTE);

/** The attention reason once the nudges ran out: the person must look (a key, an account). */
export const API_ERROR_REASON = 'api-error';

const TIMER = 'api-error';

/** What the watch uses. */
export interface ErrorWatchPorts {
  clock: PowerClock;
  scheduler: Scheduler;
  machine: Readonly<MachineState>;
  store: Pick<SessionStore, 'log' | 'update'>;
  moves: Pick<SessionTransitions, 'attention'>;
  typist: Pick<Typist, 'type'>;
  /** The pause before each nudge (default API_ERROR_NUDGE_MS); its length is how many nudges before attention. */
  nudgeMs?: readonly number[] | undefined;
}

/** One run's series of nudges at its API error. */
interface Series {
  readonly run: AgentRun;
  /** Nudges tried since the agent last completed a turn (one not taken counts). */
  tries: number;
  /** Awake ms the agent first went to error in this series; null while it is not in one. */
  firstAt: number | null;
  /** A nudge is being typed: never two at once. */
  typing: boolean;
}

export class ErrorWatch {
  private readonly series = new WeakMap<SessionRuntime, Series>();
  /** Nudges being typed now: a stop waits for them, as for a resume's (resume-controller.ts). */
  private readonly nudging = new Set<Promise<void>>();

  constructor(private readonly ports: ErrorWatchPorts) {}

  private get steps(): readonly number[] {
    return this.ports.nudgeMs ?? API_ERROR_NUDGE_MS;
  }

  /** Resolves once every nudge being typed has ended, or after `boundMs`. */
  async nudgesSettled(boundMs: number): Promise<void> {
    if (this.nudging.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.nudging]), new Promise<void>((r) => (timer = setTimeout(r, boundMs)))]);
    clearTimeout(timer);
  }

  /** The running agent's activity changed (its `session.activity`): a completed turn ends the series, an error arms it. */
  activity(rt: SessionRuntime, from: AgentActivity, to: AgentActivity): void {
    const s = this.of(rt);
    if (s === null) return;
    // A completed turn, not merely work: a nudge makes a failing agent work, then fail again.
    if (from === 'working' && to === 'waiting') {
      s.tries = 0;
      s.firstAt = null;
    }
    if (to !== 'error') return rt.timers.clear(TIMER);
    s.firstAt ??= this.ports.clock.monoMs();
    this.arm(rt, s);
  }

  /** The series of the agent running now: a new run starts a new one. */
  private of(rt: SessionRuntime): Series | null {
    const run = rt.run;
    if (run === null) return null;
    const known = this.series.get(rt);
    if (known !== undefined && known.run === run) return known;
    const fresh: Series = { run, tries: 0, firstAt: null, typing: false };
    this.series.set(rt, fresh);
    return fresh;
  }

  /** The next look: after the pause before the next nudge, or, the nudges spent, the grace before attention. */
  private arm(rt: SessionRuntime, s: Series): void {
    const steps = this.steps;
    const wait = steps[s.tries] ?? steps[0] ?? 0;
    rt.timers.set(
      TIMER,
      this.ports.scheduler.after(wait, () => {
        rt.timers.fired(TIMER);
        background(this.look(rt, s), `nudging ${rt.name} at its API error`);
      }),
    );
  }

  /** Whether this watch may act on the session now (see the header); when not, it does nothing until the next error. */
  private inCharge(rt: SessionRuntime, s: Series): boolean {
    const { machine } = this.ports;
    if (machine.asleep || machine.offline || machine.shuttingDown) return false;
    return rt.run === s.run && rt.state === 'running' && rt.activity === 'error' && !s.typing && !rt.timers.has('stuck');
  }

  private async look(rt: SessionRuntime, s: Series): Promise<void> {
    if (!this.inCharge(rt, s)) return;
    const screen = await s.run.terminal.screenText().catch(() => null);
    if (screen === null || !this.inCharge(rt, s) || isRetrying(screen, rt.profile.typing)) return;
    const firstAt = s.firstAt ?? this.ports.clock.monoMs();
    const stayed = formatDuration(this.ports.clock.monoMs() - firstAt);
    if (s.tries >= this.steps.length) return this.handOver(rt, s, stayed);
    const nudge = nudgeWithNotice(rt);
    if (nudge === null) return;
    s.tries++;
    s.typing = true;
    const typing = this.nudge(rt, s, nudge, stayed);
    this.nudging.add(typing);
    try {
      await typing;
    } finally {
      s.typing = false;
      this.nudging.delete(typing);
    }
  }

  /** Types the nudge; one taken is noted, one not taken is said by the Typist; then the next look is armed. */
  private async nudge(rt: SessionRuntime, s: Series, nudge: NonNullable<ReturnType<typeof nudgeWithNotice>>, stayed: string): Promise<void> {
    const { ports } = this;
    // Withdrawn once the session is no longer this watch's (a usage limit, an interruption) as it types.
    const stands = (): boolean => rt.run === s.run && rt.state === 'running' && !ports.machine.asleep && !ports.machine.offline;
    const outcome = await ports.typist.type(rt, nudge.text, 'nudge', true, stands);
    if (rt.run !== s.run) return;
    if (outcome.kind === 'agent-retrying' || outcome.kind === 'agent-working' || outcome.kind === 'withdrawn') {
      // Its own retries, or a turn, began as the nudge was about to be typed, or the session is no longer
      // this watch's: nothing submitted, not a try (a withdrawn one is armed again by the next error).
      s.tries--;
      return;
    }
    if (outcome.kind === 'submitted') {
      ports.store.log(rt, `SESSION NOTE - the agent stayed at its API error for ${stayed}: nudged to continue (${s.tries} of ${this.steps.length})`);
      if (nudge.notice !== null) background(ports.store.update(rt.stateDir, rollbackNoticeCleared(nudge.notice)), `clearing the rollback note of ${rt.name}`);
    }
    if (!ports.machine.shuttingDown) this.arm(rt, s);
  }

  /** The nudges ran out with no completed turn: what is wrong is the person's to fix. */
  private handOver(rt: SessionRuntime, s: Series, stayed: string): void {
    rt.timers.clear(TIMER);
    this.series.delete(rt);
    const n = s.tries;
    this.ports.moves.attention(
      rt,
      API_ERROR_REASON,
      `the agent stayed at its API error for ${stayed} through ${n} nudge${n === 1 ? '' : 's'} from Mori; the network answers, so an invalid API key or an account problem (billing, access) likely needs you: fix it, then restart the session`,
    );
  }
}
