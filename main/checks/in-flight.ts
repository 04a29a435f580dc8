// What this process has running for checks right now, so it can stop all of it when it exits: the
// process groups of running command checks and of services being started, and one process-wide
// cancel that every verification listens to besides its own signal. `mori up` cancels on SIGTERM and
// SIGINT, and kills the groups outright if shutting down overruns its deadline. Any Node process.
import { joinSignals, type JoinedSignal } from '../joined-signal.js';
import { signalGroup } from '../os/process-group.js';

const shutdown = new AbortController();
const groups = new Set<number>();

/**
 * The caller's signal joined with the process-wide cancel: aborted by whichever comes first. The
 * caller releases it when its checks are done, so the process-wide cancel keeps nothing of it.
 */
export function withShutdown(signal?: AbortSignal): JoinedSignal {
  return signal ? joinSignals(signal, shutdown.signal) : { signal: shutdown.signal, release: () => undefined };
}

/**
 * Cancels every verification of this process, running or yet to start: running commands' groups are
 * killed and every further check comes back skipped. For process exit only: it cannot be undone.
 */
export function cancelAllChecks(reason = 'the process is exiting'): void {
  shutdown.abort(new Error(reason));
}

/** Notes a process group this process started and must not leave behind. */
export function trackGroup(pgid: number): void {
  groups.add(pgid);
}

export function untrackGroup(pgid: number): void {
  groups.delete(pgid);
}

/** Sends `signal` to every tracked group at once (synchronous: safe right before process.exit). */
export function signalTrackedGroups(signal: NodeJS.Signals): number {
  let n = 0;
  for (const pgid of groups) if (signalGroup(pgid, signal)) n++;
  return n;
}
