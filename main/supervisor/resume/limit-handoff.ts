// When a session at its usage limit continues with its fallback agent (DESIGN.md §5, "Hand-off"). The
// first agent is ended at the hand-off, and with it every source that could still say when its limit
// resets, so a way back (`handoff:<profile>`, back) waits first for the reset: the agent's own record
// (Claude Code's transcript holds the API's reset to the second, written as the refused turn ends) is
// read until it names one, for HANDOFF_RECORD_WAIT_MS when the screen already named one (a clock time,
// to the minute) and up to HANDOFF_RESET_WAIT_MS when nothing did (Claude Code's retry banner
// "5-hour limit reached ∙ retrying…" comes before its record); a profile with no record waits for the
// screen's. Handed over at once, the way back would be kept for the no-reset retry guess (15 minutes
// on) or up to a minute before the reset. `stay` needs no reset: it goes at once. Runs in the
// supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';
import type { OnUsageLimit, UsageLimitPlan } from '../../../common/session.js';
import { background } from '../../background.js';
import type { Env } from '../../agents/profile.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import type { HandBack } from './hand-back.js';
import type { Handoff } from './handoff.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionSet } from '../session/session-set.js';
import type { SessionStore } from '../session/session-store.js';
import { limitFallback, limitHandoffReason } from '../limits/limit-fallback.js';
import { transcriptUsageLimit } from '../limits/transcript-limit-watch.js';
import type { UsageLimits } from '../limits/usage-limits.js';

/**
 * The longest wait for a limit's reset before handing over without it: Claude Code writes the refused
 * request's error (with the reset) to its transcript after its retries, seconds after its banner;
 * well short of the no-reset retry (limit-plan.ts), so the fallback agent still gets the time.
 */
export const HANDOFF_RESET_WAIT_MS = 60_000;
/** With a reset named on screen, the record gets this long to name the exact one: it is written as the refused turn ends, with the screen's line. */
export const HANDOFF_RECORD_WAIT_MS = 5_000;
/** How often the record is read meanwhile: a tail read of a local file. */
const POLL_MS = 250;

type Limited = Extract<SupervisorEvent, { type: 'session.limited' }>;

export interface LimitHandoffPorts {
  clock: Pick<PowerClock, 'wallMs'>;
  scheduler: Pick<Scheduler, 'after'>;
  /** The agents' environment, where their records are. */
  env: Env;
  sessions: Pick<SessionSet, 'find'>;
  store: Pick<SessionStore, 'reload'>;
  limits: Pick<UsageLimits, 'report'>;
  handoff: Pick<Handoff, 'handOff'>;
  handBack: Pick<HandBack, 'arm'>;
  /** The daemon's default policy. */
  onUsageLimit?: OnUsageLimit | undefined;
}

export class LimitHandoffs {
  constructor(private readonly ports: LimitHandoffPorts) {}

  /** A new limit of a session whose policy names a fallback: handed over once its reset is known (or at once to stay). */
  limited(e: Limited): void {
    if (e.news !== 'new') return;
    const found = this.ports.sessions.find(e.sessionId);
    if (!found.ok) return;
    const rt = found.value;
    // The policy as session.json says now (`mori set` writes it while the session runs).
    this.ports.store.reload(rt);
    const fallback = limitFallback(rt.session, this.ports.onUsageLimit);
    if (fallback === null) return;
    if (fallback.atReset === 'stay') return this.handOver(rt, e.plan);
    background(this.whenResetKnown(rt, e.plan.detectedAt), `waiting for the reset of ${rt.name}'s usage limit to hand it over`);
  }

  /** Reads the agent's record until it names the reset (or the wait ends), then hands over with the plan as it stands. */
  private async whenResetKnown(rt: SessionRuntime, detectedAt: number): Promise<void> {
    const { ports } = this;
    const start = ports.clock.wallMs();
    const record = rt.profile.limits?.transcript !== undefined;
    for (;;) {
      const plan = this.stillAt(rt, detectedAt);
      if (plan === null) return;
      const signal = record ? await this.fromRecord(rt) : null;
      // Refines the plan when it differs (usage-limits.ts's rule: the first source wins, a later one sets the reset).
      if (signal !== null && signal.resetAtMs !== null) ports.limits.report(rt, signal);
      if (signal !== null && signal.resetAtMs !== null) break;
      const wait = plan.resetAt === null ? HANDOFF_RESET_WAIT_MS : record ? HANDOFF_RECORD_WAIT_MS : 0;
      if (ports.clock.wallMs() - start >= wait) break;
      await new Promise<void>((resolve) => ports.scheduler.after(POLL_MS, resolve));
    }
    const plan = this.stillAt(rt, detectedAt);
    if (plan !== null) this.handOver(rt, plan);
  }

  /** The limit the agent's record ends on, or null. */
  private async fromRecord(rt: SessionRuntime): Promise<UsageLimitSignal | null> {
    const agent = rt.session.agent;
    return transcriptUsageLimit({ profile: rt.profile.name, env: this.ports.env, agentSessionId: agent.sessionId, cwd: agent.cwd ?? rt.projectDir, nowMs: this.ports.clock.wallMs() });
  }

  /** The session's plan while it is still at the limit detected at `detectedAt`; null once resumed, stopped or handed over meanwhile. */
  private stillAt(rt: SessionRuntime, detectedAt: number): UsageLimitPlan | null {
    const plan = rt.session.usageLimit;
    return rt.state === 'limited' && plan !== null && plan.detectedAt === detectedAt ? plan : null;
  }

  private handOver(rt: SessionRuntime, plan: UsageLimitPlan): void {
    const fallback = limitFallback(rt.session, this.ports.onUsageLimit);
    if (fallback === null) return;
    // `back`: the way back is kept for the limit's planned resume, the time Mori would have resumed it.
    const goesBack = fallback.atReset === 'back' ? { until: plan.resumeAt, resetAt: plan.resetAt } : undefined;
    const handed = this.ports.handoff.handOff(rt, { to: fallback.to, reason: limitHandoffReason(plan.resetAt), resumes: 'usage-limit', goesBack });
    background(
      handed.then(() => this.ports.handBack.arm(rt)),
      `handing ${rt.name} over at its usage limit`,
    );
  }
}
