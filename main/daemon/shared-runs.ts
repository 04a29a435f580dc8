// Runs one piece of work per key at a time and lets later callers join it: a verification asked for
// again while the same session's is running gets that one's result, however many clients or
// connections ask, so no client can pile up check runs in the daemon. Runs in the daemon.

export class SharedRuns<V> {
  private readonly running = new Map<string, Promise<V>>();

  /** The running work of `key`, or `start()` begun now and shared until it settles. */
  run(key: string, start: () => Promise<V>): { result: Promise<V>; joined: boolean } {
    const current = this.running.get(key);
    if (current !== undefined) return { result: current, joined: true };
    const result = start().finally(() => this.running.delete(key));
    this.running.set(key, result);
    return { result, joined: false };
  }

  get size(): number {
    return this.running.size;
  }
}
