// The views connected to sessions' terminals (the app's terminals, `mori attach`, the web UI): each
// attachment is remembered with its session so that when the terminal goes away (exit, restart,
// shutdown) every view is told why and let go. Runs in the supervisor's process.
import { fail, ok, type Failure, type Result } from '../../../common/result.js';
import type { Attachment, Terminal, FrameSink } from '../../terminals/terminal.js';
import type { RuntimeState } from '../../../common/events.js';
import type { SessionRuntime } from './session-runtime.js';
import { stateWord } from '../../../common/session-view.js';

/** States in which a session has no agent yet but is on its way to one (a caller may wait). */
const COMING_UP: ReadonlySet<RuntimeState> = new Set(['idle', 'starting', 'resuming', 'verifying', 'interrupted', 'backoff']);

/** The failure for a session without a live agent: `not-running` while it comes up, else `failed`. */
export function notRunning(rt: SessionRuntime): Failure {
  return fail(COMING_UP.has(rt.state) ? 'not-running' : 'failed', `session "${rt.name}" is not running (${stateWord(rt)})`);
}

/** Connects `view` to the session's terminal; `onEnd` is told when the terminal goes away. */
export function attachView(rt: SessionRuntime, view: FrameSink, onEnd: (reason: string) => void, holding = true): Result<{ attachment: Attachment; terminal: Terminal }> {
  const t = rt.terminal;
  if (!t) return notRunning(rt);
  const attachment = t.attach(view, { holding });
  const ender = (reason: string): void => {
    attachment.detach();
    onEnd(reason);
  };
  rt.viewEnders.add(ender);
  const wrapped: Attachment = {
    id: attachment.id,
    ready: attachment.ready,
    ack: (chars) => attachment.ack(chars),
    hold: (holding) => attachment.hold(holding),
    detach: () => {
      rt.viewEnders.delete(ender);
      attachment.detach();
    },
  };
  return ok({ attachment: wrapped, terminal: t });
}

/** Tells every view of the session that its terminal is gone, and why. */
export function endViews(rt: SessionRuntime, why: string): void {
  for (const end of [...rt.viewEnders]) end(why);
  rt.viewEnders.clear();
}
