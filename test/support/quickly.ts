// A promise that must settle within a bound: a read that hangs on a FIFO or a blocked thread fails the
// test with "still waiting" instead of holding it until vitest's own timeout. Test-only.
export async function quickly<T>(p: Promise<T>, ms = 1_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
