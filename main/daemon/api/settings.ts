// `settings.get` and `settings.set` (DESIGN.md §12): the daemon's settings.json, shared by both UIs;
// a change is validated, written, applied where it can be while running, and announced. Runs in the daemon.
import { parseProbeTargets } from '../../power/probe-targets.js';
import { readSettings, writeSettings } from '../daemon-settings.js';
import { bad, type Handler } from './context.js';

export const getSettings: Handler<'settings.get'> = (_p, ctx) => readSettings(ctx.home);

export const setSettings: Handler<'settings.set'> = async (p, ctx) => {
  for (const t of p.settings.probeTargets ?? []) {
    const parsed = parseProbeTargets(t);
    if (!parsed.ok) return bad(`settings.probeTargets: ${parsed.message}`);
  }
  const written = await writeSettings(ctx.home, p.settings);
  if (!written.ok) return written;
  ctx.onSettings?.(written.value);
  ctx.events.emit({ type: 'settings.changed', at: Date.now(), settings: written.value });
  return written;
};
