// `daemon.stop` (DESIGN.md §12): stops the daemon through its socket (`mori down`, the app's "Quit and
// stop agents"), after the reply is on its way; `daemon.awake`: whether it keeps the machine awake.
// Runs in the daemon.
import { fail, ok } from '../../../common/result.js';
import type { Handler } from './context.js';

export const stopDaemon: Handler<'daemon.stop'> = (p, ctx) => {
  if (!ctx.stop) return fail('failed', 'this supervisor cannot be stopped through its socket');
  const stop = ctx.stop;
  // After the reply is on its way: the stop closes every connection, this one included.
  setImmediate(() => stop(p.stopAgents));
  return ok({ pid: process.pid });
};

export const daemonAwake: Handler<'daemon.awake'> = (_p, ctx) => ok(ctx.awake?.() ?? { enabled: false, holding: false, working: 0, releaseAt: null });
