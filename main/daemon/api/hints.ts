// `hint.power` and `hint.network` (DESIGN.md §8, §12): what the app's powerMonitor and online/offline
// events tell the daemon. A suspend hint checkpoints and logs before the machine sleeps, which the
// drift detector alone cannot. Runs in the daemon.
import { ok } from '../../../common/result.js';
import type { DaemonContext, Handler } from './context.js';

export const powerHintHandler: Handler<'hint.power'> = async (p, ctx) => {
  const interrupted = powerHint(ctx, p.kind);
  // The machine is about to sleep: answer once every interrupted session's checkpoint is written.
  if (p.kind === 'suspend') await ctx.supervisor.checkpointsSettled();
  return ok({ interrupted });
};

export const networkHintHandler: Handler<'hint.network'> = (_p, ctx) => {
  ctx.power?.hint();
  return ok({});
};

/**
 * A suspend is fed to the power watch, whose listeners interrupt, checkpoint and log every running
 * session synchronously, so all of that is done when this returns; the reply then lets the machine
 * sleep. Returns how many sessions it interrupted. Lock and unlock change nothing yet.
 */
function powerHint(ctx: DaemonContext, kind: 'suspend' | 'resume' | 'lock' | 'unlock'): number {
  const running = (): number => ctx.supervisor.list().filter((s) => s.state === 'running').length;
  const before = running();
  if (kind === 'suspend') {
    ctx.power?.feed({ type: 'suspend', at: Date.now(), source: 'powerMonitor' });
    return Math.max(0, before - running());
  }
  if (kind === 'resume') {
    ctx.power?.feed({ type: 'resume', at: Date.now(), source: 'powerMonitor' });
  }
  return 0;
}
