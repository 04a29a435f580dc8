// The restart policy's built-in limits (DESIGN.md §4): the supervisor's policy
// (main/supervisor/session/restart-policy.ts) runs on them unless the daemon's settings replace one,
// and the window's Settings shows them as each field's default. Pure TypeScript, shared by main and
// the renderer.
export const RESTART_DEFAULTS = {
  /** First delay: long enough that a crash on start does not spin, short enough to feel instant. */
  baseDelayMs: 1_000,
  /** Ceiling: a minute is as long as anyone waits for an agent that keeps failing to come back. */
  maxDelayMs: 60_000,
  /** An agent that stayed up this long recovered: the next crash starts from the first delay again. */
  resetAfterUptimeMs: 60_000,
  /** This many crashes within `crashLoopWindowMs` of awake time is a crash loop. */
  crashLoopCount: 5,
  /** Ten awake minutes: five crashes in them is a loop, not bad luck. */
  crashLoopWindowMs: 10 * 60_000,
} as const;
