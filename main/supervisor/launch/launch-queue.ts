// Launches one at a time, a stagger apart, so a start or a wake never storms (DESIGN.md §4: "one
// session at a time, a few seconds apart, never all at once"). A job that fails is reported and the
// queue goes on: one rejection never poisons the launches after it. Runs in the supervisor's process.
import type { Scheduler } from '../../power/clock.js';

export interface LaunchQueueOptions {
  staggerMs: number;
  scheduler: Scheduler;
  /** A job threw or rejected: `what` names it. */
  onError: (what: string, error: unknown) => void;
}

export class LaunchQueue {
  private tail: Promise<void> = Promise.resolve();
  private closed = false;
  private waiting = 0;

  constructor(private readonly options: LaunchQueueOptions) {}

  /** Jobs queued or running. */
  get length(): number {
    return this.waiting;
  }

  /** Runs `job` after every job queued before it (and the stagger after each). */
  enqueue(what: string, job: () => Promise<void>): void {
    this.waiting++;
    this.tail = this.tail.then(async () => {
      try {
        if (this.closed) return;
        await job();
        if (this.options.staggerMs > 0 && !this.closed) {
          await new Promise<void>((resolve) => this.options.scheduler.after(this.options.staggerMs, resolve, true));
        }
      } catch (error) {
        this.options.onError(what, error);
      } finally {
        this.waiting--;
      }
    });
  }

  /** Resolves when every job queued so far has run (it never rejects). */
  idle(): Promise<void> {
    return this.tail;
  }

  /** Jobs not started yet are dropped; resolves when the running one is done. */
  close(): Promise<void> {
    this.closed = true;
    return this.tail;
  }
}
