// Waiting, in tests, on what real processes, files and sockets do: `until` polls a condition until
// it holds or its time is up, then fails naming what did not happen, with what the caller adds to
// say why (the events seen, a process's stderr); `untilValue` does the same with a probed value,
// sync or async, and returns the last one. Runs in vitest.

/** The default wait: a spawned daemon or agent on a loaded machine answers well within it. */
export const UNTIL_DEFAULT_MS = 25_000;
/** The default poll: a change is seen within a frame or so, and a costly condition (a `ps`) runs 20 times a second at most. */
const POLL_MS = 50;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves with the first probed value `ok` accepts; throws `timed out waiting for <what>; <detail>` after `timeoutMs`. */
export async function untilValue<T>(what: string, probe: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = UNTIL_DEFAULT_MS, detail: (last: T) => string = () => '', pollMs = POLL_MS): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last = await probe();
  while (!ok(last)) {
    if (Date.now() > end) {
      const why = detail(last);
      throw new Error(`timed out waiting for ${what}${why ? `; ${why}` : ''}`);
    }
    await sleep(pollMs);
    last = await probe();
  }
  return last;
}

/** Resolves once `ok()` holds; throws `timed out waiting for <what>; <detail()>` after `timeoutMs`. */
export async function until(what: string, ok: () => boolean, detail: () => string = () => '', timeoutMs = UNTIL_DEFAULT_MS, pollMs = POLL_MS): Promise<void> {
  await untilValue(what, ok, (v) => v, timeoutMs, detail, pollMs);
}
