// Timers at any distance. setTimeout holds a delay in a signed 32-bit int: one over 2^31−1 ms
// (24.8 days) fires at once (Node sets it to 1 ms). Every timer Mori arms through a Scheduler goes
// here: a longer wait is armed in steps below that bound, and a wall-clock deadline is measured
// again on the wall clock at each step. Main process (and the `mori` CLI).
import type { Cancel, PowerClock, Scheduler } from './clock.js';

/** The longest delay setTimeout honours (its int32 limit). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** One step of a longer wait: a day, far below the limit (and short enough that a changed wall clock is seen within a day). */
export const LONG_TIMER_STEP_MS = 24 * 60 * 60_000;

/**
 * `fn` after `ms` of the scheduler's time, however long: beyond MAX_TIMER_MS it is armed again in
 * steps of LONG_TIMER_STEP_MS. `arm` is one raw one-shot timer (setTimeout or a test's clock).
 */
export function afterAnyDelay(arm: Scheduler['after'], ms: number, fn: () => void, keepAlive?: boolean): Cancel {
  let cancel: Cancel = () => undefined;
  let cancelled = false;
  const step = (left: number): void => {
    if (left <= MAX_TIMER_MS) {
      cancel = arm(Math.max(0, left), fn, keepAlive);
      return;
    }
    cancel = arm(LONG_TIMER_STEP_MS, () => {
      if (!cancelled) step(left - LONG_TIMER_STEP_MS);
    }, keepAlive);
  };
  step(ms);
  return () => {
    cancelled = true;
    cancel();
  };
}

/**
 * `fn` when the wall clock reaches `deadlineMs` (epoch ms), however far ahead: the distance is armed
 * in steps of at most LONG_TIMER_STEP_MS, each measured again from the wall clock, so a far deadline
 * neither overflows the timer nor drifts from the monotonic clock the timer counts on. The last step
 * fires `fn` as armed (a deadline passed already fires on the next turn).
 */
export function atWallTime(clock: Pick<PowerClock, 'wallMs'>, scheduler: Scheduler, deadlineMs: number, fn: () => void, keepAlive?: boolean): Cancel {
  let cancel: Cancel = () => undefined;
  let cancelled = false;
  const step = (): void => {
    const left = Math.max(0, deadlineMs - clock.wallMs());
    if (left <= LONG_TIMER_STEP_MS) {
      cancel = scheduler.after(left, fn, keepAlive);
      return;
    }
    cancel = scheduler.after(LONG_TIMER_STEP_MS, () => {
      if (!cancelled) step();
    }, keepAlive);
  };
  step();
  return () => {
    cancelled = true;
    cancel();
  };
}
