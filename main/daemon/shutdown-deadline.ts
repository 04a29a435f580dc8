// How `mori up` ends on SIGTERM/SIGINT within a bound, whatever is running: every verification of the
// process is cancelled at once (their command checks' process groups killed), and a deadline after
// which the process exits anyway. Runs in the `mori up` process.
import { cancelAllChecks, signalTrackedGroups } from '../checks/in-flight.js';

/**
 * A person pressing Ctrl-C expects the prompt back in a moment, and service managers escalate to
 * SIGKILL after a grace (docker stop: 10 s), which would leave check commands running. A clean
 * shutdown takes well under a second (checkpoints, a log line, a tmux detach); 4 s leaves room for a
 * loaded machine and still ends within 5 s of the signal.
 */
export const SHUTDOWN_DEADLINE_MS = 4_000;

/**
 * Starts shutting down: cancels every check of this process now, and arms the deadline. Past it, the
 * process kills what check and service-start groups are still tracked and exits with code 1, saying
 * so: a shutdown step that hangs (a stuck child, a stalled disk) must not keep the process alive,
 * because an agent's session outlives it anyway (tmux) or is already being ended (direct).
 * Returns a function that disarms the deadline (for a shutdown that finished in time).
 */
export function beginShutdown(deadlineMs = SHUTDOWN_DEADLINE_MS): () => void {
  cancelAllChecks('mori up is shutting down');
  const timer = setTimeout(() => {
    signalTrackedGroups('SIGKILL');
    process.stderr.write(`mori: shutdown did not finish within ${deadlineMs / 1000}s; exiting anyway\n`);
    process.exit(1);
  }, deadlineMs);
  // The deadline alone must not keep the process alive once everything else is done.
  timer.unref();
  return () => clearTimeout(timer);
}

/**
 * Resolves on the first SIGTERM or SIGINT, having begun the shutdown (beginShutdown). The handlers
 * stay installed, so a second Ctrl-C does not kill the process before its checks are stopped.
 */
export function shutdownRequested(deadlineMs = SHUTDOWN_DEADLINE_MS): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let requested = false;
    const on = (signal: NodeJS.Signals): void => {
      if (requested) return;
      requested = true;
      beginShutdown(deadlineMs);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
