// `settings.get` and `settings.set` (DESIGN.md §12): the daemon's settings.json, shared by both UIs;
// a change is validated, written, applied where it can be while running, and announced. Runs in the daemon.
import { parseParams } from '../../../common/ipc.js';
import { parseProbeTargets } from '../../power/probe-targets.js';
import { readSettings, writeSettings } from '../daemon-settings.js';
import { bad, type Handler } from './context.js';

export const getSettings: Handler = (ctx) => readSettings(ctx.home);

export const setSettings: Handler = async (ctx, raw) => {
  const p = parseParams('settings.set', raw);
  if (!p.ok) return bad(p.message);
  for (const t of p.value.settings.probeTargets ?? []) {
    const parsed = parseProbeTargets(t);
    if (!parsed.ok) return bad(`settings.probeTargets: ${parsed.message}`);
  }
  const written = await writeSettings(ctx.home, p.value.settings);
  if (!written.ok) return written;
  ctx.onSettings?.(written.value);
  ctx.events.emit({ type: 'settings.changed', at: Date.now(), settings: written.value });
  return written;
};
