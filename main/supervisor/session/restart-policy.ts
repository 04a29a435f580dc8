// The restart policy (DESIGN.md §4), as pure functions over awake time (a monotonic clock that
// stops while the machine sleeps): exponential backoff with jitter from 1 s to 60 s, reset once an
// agent has stayed up 60 s, and a crash loop (5 crashes within 10 awake minutes) that stops the
// restarts and asks for attention. No timers, no I/O. Runs in the supervisor's process.

export interface RestartPolicyConfig {
  /** First delay: long enough that a crash on start does not spin, short enough to feel instant. */
  baseDelayMs: number;
  /** Ceiling: a minute is as long as anyone waits for an agent that keeps failing to come back. */
  maxDelayMs: number;
  /** An agent that stayed up this long recovered: the next crash starts from the first delay again. */
  resetAfterUptimeMs: number;
  /** This many crashes within `crashLoopWindowMs` of awake time is a crash loop. */
  crashLoopCount: number;
  crashLoopWindowMs: number;
  /** ± this fraction of the delay, so agents that crashed together do not restart together. */
  jitter: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyConfig = {
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  resetAfterUptimeMs: 60_000,
  crashLoopCount: 5,
  crashLoopWindowMs: 10 * 60_000,
  // ±20 %: with doubling delays, consecutive delays still always grow (1.2 d < 1.6 d).
  jitter: 0.2,
};

/** What the policy remembers about one session: the backoff step and recent crashes (awake ms). */
export interface RestartState {
  attempt: number;
  crashes: number[];
}

export const initialRestartState = (): RestartState => ({ attempt: 0, crashes: [] });

/**
 * The delay before restart number `attempt` (0-based): base × 2^attempt, capped, with jitter.
 * `random` is a number in [0, 1) (Math.random in production, fixed in tests).
 */
export function backoffDelay(attempt: number, random: number, cfg: RestartPolicyConfig = DEFAULT_RESTART_POLICY): number {
  const raw = Math.min(cfg.maxDelayMs, cfg.baseDelayMs * 2 ** Math.max(0, attempt));
  const factor = 1 - cfg.jitter + 2 * cfg.jitter * Math.min(Math.max(random, 0), 1);
  return Math.round(Math.min(cfg.maxDelayMs, raw * factor));
}

export type CrashDecision = { kind: 'restart'; delayMs: number } | { kind: 'crash-loop'; crashes: number; windowMs: number };

/**
 * A crash at awake time `now` of an agent that had been up `uptimeMs`: the new restart state and
 * whether to restart (after how long) or give up as a crash loop.
 */
export function onCrash(
  state: RestartState,
  now: number,
  uptimeMs: number,
  random: number,
  cfg: RestartPolicyConfig = DEFAULT_RESTART_POLICY,
): { state: RestartState; decision: CrashDecision } {
  const crashes = [...state.crashes.filter((t) => now - t < cfg.crashLoopWindowMs), now];
  const attempt = uptimeMs >= cfg.resetAfterUptimeMs ? 0 : state.attempt;
  if (crashes.length >= cfg.crashLoopCount) {
    return { state: { attempt, crashes }, decision: { kind: 'crash-loop', crashes: crashes.length, windowMs: cfg.crashLoopWindowMs } };
  }
  return { state: { attempt: attempt + 1, crashes }, decision: { kind: 'restart', delayMs: backoffDelay(attempt, random, cfg) } };
}
