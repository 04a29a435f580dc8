// A hand-driven clock and scheduler for tests of anything built on main/power/: time moves only
// when `advance` is called, and the wall and monotonic clocks can be moved apart to act out a
// sleep (wall only), a frozen process (both) or a wall-clock change (wall only, either way). Like
// setTimeout, a delay past 2^31−1 ms fires at once.
import type { Cancel, PowerClock, Scheduler } from '../../../main/power/clock.js';
import { MAX_TIMER_MS } from '../../../main/power/long-timer.js';

interface Pending {
  dueMono: number;
  seq: number;
  fn: () => void;
}

export class ManualTime implements PowerClock, Scheduler {
  private wall: number;
  private mono = 0;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(startWallMs = Date.UTC(2026, 10, 30, 15, 0, 0)) {
    this.wall = startWallMs;
  }

  wallMs(): number {
    return this.wall;
  }

  monoMs(): number {
    return this.mono;
  }

  after(ms: number, fn: () => void): Cancel {
    // As setTimeout does: a delay past its int32 limit (2^31−1 ms, 24.8 days) fires at once.
    const delay = ms > MAX_TIMER_MS ? 1 : Math.max(0, ms);
    const entry: Pending = { dueMono: this.mono + delay, seq: this.seq++, fn };
    this.pending.push(entry);
    return () => {
      this.pending = this.pending.filter((p) => p !== entry);
    };
  }

  /** How many timers are waiting. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Lets `ms` of awake time pass on both clocks, firing due timers in order. */
  advance(ms: number): void {
    const end = this.mono + ms;
    for (;;) {
      const next = this.nextDue();
      if (!next || next.dueMono > end) break;
      // A timer that fell due while the process was frozen fires as soon as time moves again.
      const at = Math.max(next.dueMono, this.mono);
      this.wall += at - this.mono;
      this.mono = at;
      this.pending = this.pending.filter((p) => p !== next);
      next.fn();
    }
    this.wall += end - this.mono;
    this.mono = end;
  }

  /**
   * Moves time on in `stepMs` steps while `pending` is unsettled, for code that waits on this clock
   * between reads of its own (a delivery polling a screen): each step first lets what is ready run.
   */
  async driveUntilSettled<T>(pending: Promise<T>, stepMs: number): Promise<T> {
    let done = false;
    const watched = pending.finally(() => (done = true));
    while (!done) {
      // setImmediate comes after every promise job already queued: the code under test reads first.
      await new Promise((r) => setImmediate(r));
      if (!done) this.advance(stepMs);
    }
    return watched;
  }

  /** The machine sleeps `ms`: the wall clock moves, the monotonic clock and timers do not. */
  sleep(ms: number): void {
    this.wall += ms;
  }

  /** The process is frozen `ms` (SIGSTOP): both clocks move, timers fire only afterwards, late. */
  freeze(ms: number): void {
    this.wall += ms;
    this.mono += ms;
  }

  /** Someone sets the wall clock by `ms` (negative: back). */
  setWallBy(ms: number): void {
    this.wall += ms;
  }

  private nextDue(): Pending | undefined {
    let best: Pending | undefined;
    for (const p of this.pending) {
      if (!best || p.dueMono < best.dueMono || (p.dueMono === best.dueMono && p.seq < best.seq)) best = p;
    }
    return best;
  }
}
