// `settings.get` and `settings.set` (DESIGN.md §12): the daemon's settings.json, shared by both UIs;
// a change is validated, written, applied where it can be while running, and announced. The targets
// off the machine are shown masked and kept as stored (api/notify.ts changes them). Runs in the daemon.
import { parseProbeTargets } from '../../power/probe-targets.js';
import { ok } from '../../../common/result.js';
import { readSettings, shownSettings, writeSettings } from '../daemon-settings.js';
import { bad, type Handler } from './context.js';

export const getSettings: Handler<'settings.get'> = (_p, ctx) => {
  const r = readSettings(ctx.home);
  return r.ok ? ok(shownSettings(r.value)) : r;
};

export const setSettings: Handler<'settings.set'> = async (p, ctx) => {
  for (const t of p.settings.probeTargets ?? []) {
    const parsed = parseProbeTargets(t);
    if (!parsed.ok) return bad(`settings.probeTargets: ${parsed.message}`);
  }
  // The targets off the machine change only through notify.add / notify.remove; what a client sends
  // back is what settings.get showed it, masked. A file that does not parse is replaced, as before.
  const stored = readSettings(ctx.home);
  const written = await writeSettings(ctx.home, { ...p.settings, notifyTargets: stored.ok ? stored.value.notifyTargets : [] });
  if (!written.ok) return written;
  ctx.onSettings?.(written.value);
  ctx.events.emit({ type: 'settings.changed', at: Date.now(), settings: shownSettings(written.value) });
  return ok(shownSettings(written.value));
};
