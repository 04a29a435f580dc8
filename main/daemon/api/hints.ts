// `hint.power` and `hint.network` (DESIGN.md §8, §12): what the app's powerMonitor and online/offline
// events tell the daemon. A suspend hint records and logs every running session's interruption
// before the machine sleeps, which the drift detector alone cannot, and answers then; their
// checkpoints follow in the background, a few at a time. Runs in the daemon.
import { ok } from '../../../common/result.js';
import type { DaemonContext, Handler } from './context.js';

export const powerHintHandler: Handler<'hint.power'> = (p, ctx) => {
  // The interruptions are on disk when this returns; the checkpoints it began are not awaited (each
  // is logged as it lands, after its SESSION INTERRUPTED line), so the answer never waits on git.
  return ok({ interrupted: powerHint(ctx, p.kind) });
};

export const networkHintHandler: Handler<'hint.network'> = (_p, ctx) => {
  ctx.power?.hint();
  return ok({});
};

/**
 * A suspend is fed to the power watch, whose listeners interrupt and log every running session
 * synchronously (and start their checkpoints), so that is done when this returns. Returns how many sessions it interrupted. Lock and unlock change nothing yet.
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
