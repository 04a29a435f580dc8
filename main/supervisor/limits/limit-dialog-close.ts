// Before the resume after a usage limit (DESIGN.md §4, "Usage limits"): an agent that still shows its
// limit dialog (Gemini CLI) takes no typed text, so the dialog is closed with its Stop choice and the
// agent given a moment to come back to its prompt, where the resume path then finds it (its activity
// read again: the refused request's error, or its prompt) and nudges it. Runs in the supervisor's process.
import { limitDialogStopKey } from '../../agents/usage-limit/limit-dialog.js';
import type { Scheduler } from '../../power/clock.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';

/** The agent redraws within a second; on a busy 2-core machine and with the activity's settle time, a few more. */
export const DIALOG_CLOSE_WAIT_MS = 8_000;
/** How often the activity is looked at meanwhile. */
const POLL_MS = 200;

export interface LimitDialogPorts {
  scheduler: Pick<Scheduler, 'after'>;
  store: Pick<SessionStore, 'log'>;
}

/**
 * Closes the agent's usage-limit dialog when its screen shows one, and waits until the agent is at its
 * prompt or shows the refused request's error (or the wait ends). `stillOurs` says whether the resume
 * still owns the session (not stopped or replaced meanwhile). True when a dialog was closed.
 */
export async function closeLimitDialog(rt: SessionRuntime, ports: LimitDialogPorts, stillOurs: () => boolean): Promise<boolean> {
  const run = rt.run;
  if (run === null || rt.profile.patterns.limitDialogStop === undefined) return false;
  const screen = await run.terminal.screenText().catch(() => '');
  const key = limitDialogStopKey(rt.profile, screen);
  if (key === null || !stillOurs() || rt.run !== run) return false;
  run.terminal.write(key);
  ports.store.log(rt, `SESSION NOTE - the agent's usage-limit dialog answered "Stop" (key ${key}) so it can be resumed`);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => ports.scheduler.after(ms, resolve));
  for (let waited = 0; waited < DIALOG_CLOSE_WAIT_MS && stillOurs() && rt.run === run; waited += POLL_MS) {
    await sleep(POLL_MS);
    if (rt.activity !== 'waiting' && rt.activity !== 'error') continue;
    const now = await run.terminal.screenText().catch(() => '');
    if (limitDialogStopKey(rt.profile, now) === null) break;
  }
  return true;
}
