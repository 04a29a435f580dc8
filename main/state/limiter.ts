// A counting limiter: at most `max` tasks run at once, the rest wait in arrival order. Used to keep
// many sessions from running git (or other child processes) all at the same moment. Any Node process.

export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Holds in force: no task starts while there is one (those running go on). */
  private holds = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`limiter: max must be a positive integer, not ${max}`);
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` once a slot is free; the slot is given back however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max || this.holds > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.holds === 0 ? this.waiting.shift() : undefined;
      // The slot passes straight to the next waiter, so `running` never dips and lets a newcomer jump the queue.
      if (next) next();
      else this.running--;
    }
  }

  /**
   * Starts no further task until the returned release is called (once; later calls do nothing):
   * something more urgent wants the process to itself for a moment. Tasks running go on.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      while (this.holds === 0 && this.running < this.max && this.waiting.length > 0) {
        this.running++;
        this.waiting.shift()?.();
      }
    };
  }
}
