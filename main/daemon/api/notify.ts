// `notify.*` (DESIGN.md §13 "Notices off the machine"): the targets off the machine listed masked,
// added and removed in settings.json (approvals: approval-gate.ts refuses them from inside an agent),
// and a test notice sent to each. Runs in the daemon.
import { TARGET_DEFAULT_EVENTS } from '../../../common/notify-events.js';
import { fail, ok } from '../../../common/result.js';
import { addTarget, readSettings, removeTarget, shownSettings, shownTarget } from '../daemon-settings.js';
import type { DaemonContext, Handler } from './context.js';

const changed = (ctx: DaemonContext, settings: Parameters<typeof shownSettings>[0]): void => {
  ctx.onSettings?.(settings);
  ctx.events.emit({ type: 'settings.changed', at: Date.now(), settings: shownSettings(settings) });
};

export const listTargets: Handler<'notify.list'> = (_p, ctx) => {
  const r = readSettings(ctx.home);
  return r.ok ? ok(r.value.notifyTargets.map(shownTarget)) : r;
};

export const addNotifyTarget: Handler<'notify.add'> = async (p, ctx) => {
  const r = await addTarget(ctx.home, { kind: p.kind, url: p.url, events: p.events ?? [...TARGET_DEFAULT_EVENTS] });
  if (!r.ok) return r;
  changed(ctx, r.value.settings);
  return ok(shownTarget(r.value.target));
};

export const removeNotifyTarget: Handler<'notify.remove'> = async (p, ctx) => {
  const r = await removeTarget(ctx.home, p.target);
  if (!r.ok) return r;
  changed(ctx, r.value.settings);
  return ok(shownTarget(r.value.target));
};

export const testNotifyTargets: Handler<'notify.test'> = async (_p, ctx) => {
  if (!ctx.notifyTest) return fail('failed', 'this daemon sends no notices off the machine');
  return ok(await ctx.notifyTest());
};
