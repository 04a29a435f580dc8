// Recency order of a bounded set of keys (the live terminals of renderer/terminal/terminal-pool.ts): using a
// key makes it the newest, and past the capacity the oldest keys are handed back to be disposed.
// Pure TypeScript.

export class Lru<K> {
  /** Oldest first: a Map keeps insertion order, and re-inserting moves a key to the end. */
  private readonly order = new Map<K, true>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`an LRU needs room for at least one key, not ${capacity}`);
  }

  /** Makes `key` the newest; returns the keys that no longer fit, oldest first (never `key`). */
  use(key: K): K[] {
    this.order.delete(key);
    this.order.set(key, true);
    const evicted: K[] = [];
    for (const k of this.order.keys()) {
      if (this.order.size <= this.capacity) break;
      this.order.delete(k);
      evicted.push(k);
    }
    return evicted;
  }

  has(key: K): boolean {
    return this.order.has(key);
  }

  delete(key: K): void {
    this.order.delete(key);
  }

  /** Oldest first. */
  keys(): K[] {
    return [...this.order.keys()];
  }
}
