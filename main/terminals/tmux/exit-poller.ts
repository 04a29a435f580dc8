// Learning how a tmux pane's program ended. A pane reads as dead (its pty closed) before tmux has
// reaped the program and knows its status. tmux 3.3a built with libutempter can even miss the
// program's SIGCHLD for good (utempter swaps the handler while it removes the utmp record of that
// very pane; fixed upstream after 3.3a), leaving the program a zombie until some other child of the
// server exits. So the poller makes one exit: a `run-shell true` job, whose SIGCHLD makes the
// server reap every child, and looks again. One poller serves both ways of asking (the owner's
// control client, or one-shot commands once that client is gone); it waits on an injected
// scheduler, so tests drive it with fake time. Runs in the supervisor's process.
import type { Scheduler } from '../../power/clock.js';
import type { PaneFate } from './pane-format.js';

/** Look again this often, this many times, while the program is reaped; 2 s only bounds a server that never learns the status. */
export const EXIT_STATUS_POLL_MS = 20;
export const EXIT_STATUS_POLLS = 100;
/** While the pane still runs (our control client went away on its own), look this often. */
export const RUNNING_POLL_MS = 100;
/** The tmux command whose exit makes the server reap its children. */
export const REAP_NUDGE = ['run-shell', 'true'];

export interface ExitPoll {
  /** The pane's fate now; null when it cannot be read (the pane, or the way of asking, is gone). */
  readFate(): Promise<PaneFate | null>;
  /** Runs REAP_NUDGE. */
  nudge(): Promise<unknown>;
  scheduler: Scheduler;
  /** How many more looks, RUNNING_POLL_MS apart, a pane that still runs gets (0: answer at once). */
  runningPolls: number;
  /** True once the exit is known some other way: stop looking. */
  settled?(): boolean;
}

/**
 * Reads the pane's fate until it is `dead` or the budgets run out, and returns the last fate read:
 * `dead` with the exit, `running` or `exiting` when the budgets ran out first, null when it could
 * not be read (or the poll was settled elsewhere).
 */
export async function pollPaneExit(poll: ExitPoll): Promise<PaneFate | null> {
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => poll.scheduler.after(ms, resolve, true));
  let exitingLooks = 0;
  let runningLooks = 0;
  for (;;) {
    if (poll.settled?.()) return null;
    const fate = await poll.readFate();
    if (fate === null || fate.state === 'dead') return fate;
    if (fate.state === 'exiting' && exitingLooks < EXIT_STATUS_POLLS) {
      // The first nudge goes at once: the program is usually reaped by then.
      if (exitingLooks > 0) await sleep(EXIT_STATUS_POLL_MS);
      exitingLooks += 1;
      await poll.nudge();
      continue;
    }
    if (runningLooks >= poll.runningPolls) return fate;
    runningLooks += 1;
    await sleep(RUNNING_POLL_MS);
  }
}
