// What the echo benches share: a terminal's output as it arrives with an event-driven wait for a
// key in it (no polling delay in the figure), keystroke → echo latencies one key at a time.

export class Screen {
  text = '';
  private waiter: (() => void) | null = null;

  push(data: string): void {
    this.text += data;
    this.waiter?.();
  }

  /** Resolves as soon as `key` appears after `from`. */
  waitFor(key: string, from: number): Promise<void> {
    return new Promise((resolve, reject) => {
      // An echo is milliseconds; 5 s means the path is broken, not slow.
      const timer = setTimeout(() => reject(new Error(`no echo of ${key}`)), 5_000);
      const check = (): void => {
        if (!this.text.slice(from).includes(key)) return;
        clearTimeout(timer);
        this.waiter = null;
        resolve();
      };
      this.waiter = check;
      check();
    });
  }
}

/** Time from each keystroke to its echo, one keystroke at a time. */
export async function echoLatencies(write: (d: string) => void, screen: Screen, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const key = String.fromCharCode(97 + (i % 26));
    const from = screen.text.length;
    const t0 = performance.now();
    const echoed = screen.waitFor(key, from);
    write(key);
    await echoed;
    out.push(performance.now() - t0);
  }
  return out;
}
