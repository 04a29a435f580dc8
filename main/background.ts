// One way to start work nobody awaits: `background(promise, what)` attaches the handler that reports
// a rejection (stderr, naming what failed) so no async effect ends unhandled and takes the process
// down. Code that has a better place to report (an event, a work-log entry) handles it there first.
// Any Node process of Mori.

/** How a rejection is reported when nobody else handles it; tests replace it to observe reports. */
export let reportBackgroundFailure = (what: string, error: unknown): void => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`mori: ${what} failed: ${text}\n`);
};

/** Replaces the reporter (tests); returns the previous one. */
export function setBackgroundReporter(report: (what: string, error: unknown) => void): (what: string, error: unknown) => void {
  const previous = reportBackgroundFailure;
  reportBackgroundFailure = report;
  return previous;
}

/** Runs `work` without awaiting it; a rejection is reported as `what` failed, never left unhandled. */
export function background(work: Promise<unknown>, what: string): void {
  work.then(
    () => undefined,
    (error: unknown) => reportBackgroundFailure(what, error),
  );
}
