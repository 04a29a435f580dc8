// The clocks and timers main/power/ runs on, behind two small interfaces so the detectors are
// tested with fake time and run for real with the system's. Main process (and the `mori` CLI).
import { performance } from 'node:perf_hooks';
import { afterAnyDelay } from './long-timer.js';

/** Both clocks the drift detector compares: wall (may jump, counts sleep) and monotonic (never jumps). */
export interface PowerClock {
  /** Wall-clock epoch milliseconds (Date.now()). */
  wallMs(): number;
  /** Monotonic milliseconds from an arbitrary origin; on Linux and macOS it stops while the machine sleeps. */
  monoMs(): number;
}

/** Cancels what was scheduled; calling it twice is harmless. */
export type Cancel = () => void;

/**
 * One-shot timers. Background timers do not keep the process alive on their own; pass
 * `keepAlive` for a timer someone is awaiting (a bounded wait must end, not vanish at exit).
 */
export interface Scheduler {
  after(ms: number, fn: () => void, keepAlive?: boolean): Cancel;
}

export const systemClock: PowerClock = {
  wallMs: () => Date.now(),
  monoMs: () => performance.now(),
};

/**
 * setTimeout, unref'd unless asked: watching for sleep and network is background work, so it must
 * not be the reason a process stays up (the supervisor's sockets and terminals keep `mori up` alive).
 * A delay past setTimeout's limit is armed in steps (long-timer.ts), never fired at once.
 */
export const systemScheduler: Scheduler = {
  after(ms, fn, keepAlive = false) {
    return afterAnyDelay(
      (step, stepFn, keep) => {
        const timer = setTimeout(stepFn, step);
        if (keep !== true) timer.unref();
        return () => clearTimeout(timer);
      },
      ms,
      fn,
      keepAlive,
    );
  },
};
