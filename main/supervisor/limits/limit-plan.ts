// When a session at its usage limit resumes (DESIGN.md §4, "Usage limits"): at the reset plus a
// jitter that keeps sessions limited together from resuming together, or, when the agent named no
// reset time, after a retry interval that doubles while resumes keep meeting the limit. Pure.
import type { UsageLimitPlan } from '../../../common/session.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';

/** The longest a resume waits past the reset: ten sessions limited together spread over a minute. */
export const LIMIT_JITTER_MS = 60_000;
/** No two planned resumes closer than this: each relaunch and its first request get a second to themselves. */
export const LIMIT_MIN_GAP_MS = 1_000;
/** With no reset time, the first retry is this far off: a typical provider window is hours, a retry costs one request. */
export const LIMIT_RETRY_FIRST_MS = 15 * 60_000;
/** …and retries double up to this: never more than two hours between tries. */
export const LIMIT_RETRY_MAX_MS = 2 * 60 * 60_000;
/**
 * A reset further ahead than this is not believed: the longest window any CLI has is a week (the
 * weekly limits), so a week and a day leaves room for zones and jitter. Beyond it the limit is
 * treated as naming no reset time (the retry rule).
 */
export const LIMIT_MAX_RESET_AHEAD_MS = 8 * 24 * 60 * 60_000;
/** A limit met again this soon after its resume continues the streak (the retry backoff), instead of starting over. */
export const LIMIT_AGAIN_WINDOW_MS = 10 * 60_000;

/** Which jitter slot a resume takes when it is not left to chance (tests only). */
export type JitterSlot = 'first' | 'last';

/** The retry interval of the `retries`-th try in a row: 15 min, 30 min, 1 h, 2 h, 2 h… */
export function limitRetryDelay(retries: number): number {
  return Math.min(LIMIT_RETRY_FIRST_MS * 2 ** Math.min(retries, 30), LIMIT_RETRY_MAX_MS);
}

/**
 * The jitter rule: the window [0, jitterMs] is cut into slots two LIMIT_MIN_GAP_MS wide; a resume
 * goes in the first LIMIT_MIN_GAP_MS of a slot (so resumes in different slots are always more than
 * LIMIT_MIN_GAP_MS apart), in a slot picked at random among those whose time is at least
 * LIMIT_MIN_GAP_MS from every other planned resume. With no slot free (more sessions than slots), any
 * slot. 60 s make 30 slots.
 * A `slot` named (tests only: MORI_LIMIT_JITTER_SLOT) takes the first or last free slot at its start
 * instead of a random one, so a test can place the resume before or after an agent's own timing.
 */
export function jitteredResumeAt(base: number, jitterMs: number, others: readonly number[], random: () => number, slot?: JitterSlot): number {
  const slotMs = 2 * LIMIT_MIN_GAP_MS;
  const slots = Math.max(1, Math.floor((jitterMs + LIMIT_MIN_GAP_MS) / slotMs));
  const within = Math.min(LIMIT_MIN_GAP_MS, jitterMs + 1);
  const offset = slot === undefined ? Math.floor(random() * within) : 0;
  const at = (k: number): number => base + k * slotMs + offset;
  const free: number[] = [];
  for (let k = 0; k < slots; k++) if (others.every((o) => Math.abs(o - at(k)) >= LIMIT_MIN_GAP_MS)) free.push(k);
  const pool = free.length > 0 ? free : Array.from({ length: slots }, (_, k) => k);
  const pick = slot === 'first' ? 0 : slot === 'last' ? pool.length - 1 : Math.min(pool.length - 1, Math.floor(random() * pool.length));
  return at(pool[pick] ?? 0);
}

/** The reset a signal names, when it is believable from `now`; else null (no reset time given). */
export function plausibleReset(resetAtMs: number | null, now: number): number | null {
  return resetAtMs !== null && resetAtMs - now > LIMIT_MAX_RESET_AHEAD_MS ? null : resetAtMs;
}

export interface PlanInput {
  signal: UsageLimitSignal;
  now: number;
  /** Resumes in a row that met a limit again (0 for a first limit). */
  retries: number;
  jitterMs: number;
  /** The resume times other sessions have planned. */
  others: readonly number[];
  random: () => number;
  /** The slot taken, when not a random one (tests only). */
  slot?: JitterSlot | undefined;
}

/** The plan for a limit: resume at its reset plus jitter, or after the retry interval plus jitter. */
export function planLimit(input: PlanInput): UsageLimitPlan {
  const { signal, now } = input;
  // A reset already past (a clock behind the provider's) resumes now, jittered as any other.
  const base = signal.resetAtMs !== null ? Math.max(signal.resetAtMs, now) : now + limitRetryDelay(input.retries);
  return {
    detectedAt: now,
    resetAt: signal.resetAtMs,
    resumeAt: jitteredResumeAt(base, input.jitterMs, input.others, input.random, input.slot),
    source: signal.source,
    text: signal.text,
    retries: input.retries,
  };
}
