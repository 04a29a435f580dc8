// The daemon's settings file, `$MORI_HOME/settings.json` (DESIGN.md §12): read with the zod schema of
// common/daemon-settings.ts (a missing file is the defaults), written atomically, mode 0600. A file
// that does not parse is reported and left in place, never overwritten silently. The targets off the
// machine are added and removed here, and shown masked. Runs in the daemon, and in the CLI when no
// daemon runs.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DaemonSettings, type NotifyTarget } from '../../common/daemon-settings.js';
import { maskedUrl } from '../../common/notify-targets.js';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomic } from '../state/atomic-write.js';

export const SETTINGS_FILE = 'settings.json';

export const settingsPath = (home: string): string => path.join(home, SETTINGS_FILE);

export function readSettings(home: string): Result<DaemonSettings> {
  const file = settingsPath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok(DaemonSettings.parse({}));
    return fail('unreadable', `${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail('unreadable', `${file}: not valid JSON (${(err as Error).message}); left as it is`);
  }
  const parsed = DaemonSettings.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('unreadable', `${file}: ${issue?.path.join('.') || 'top level'}: ${issue?.message}; left as it is`);
  }
  return ok(parsed.data);
}

export async function writeSettings(home: string, settings: DaemonSettings): Promise<Result<DaemonSettings>> {
  const parsed = DaemonSettings.safeParse(settings);
  if (!parsed.success) return fail('usage', `settings: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  // The CLI adds a target before any daemon or session made the home: made private, as the registry's.
  mkdirSync(home, { recursive: true, mode: 0o700 });
  await writeAtomic(settingsPath(home), JSON.stringify(parsed.data, null, 2) + '\n', 0o600);
  return ok(parsed.data);
}

/** The settings as any client may see them: each target's URL masked (it may carry a token). */
export function shownSettings(settings: DaemonSettings): DaemonSettings {
  return { ...settings, notifyTargets: settings.notifyTargets.map(shownTarget) };
}

export const shownTarget = (t: NotifyTarget): NotifyTarget => ({ ...t, url: maskedUrl(t.url) });

/**
 * Adds a target to settings.json (read, changed, written 0600). The caller has made sure the person
 * asked (approval-gate.ts): a target decides where notices go.
 */
export async function addTarget(home: string, target: Omit<NotifyTarget, 'id'>): Promise<Result<{ settings: DaemonSettings; target: NotifyTarget }>> {
  const current = readSettings(home);
  if (!current.ok) return current;
  const added: NotifyTarget = { ...target, id: randomBytes(4).toString('hex') };
  const written = await writeSettings(home, { ...current.value, notifyTargets: [...current.value.notifyTargets, added] });
  return written.ok ? ok({ settings: written.value, target: added }) : written;
}

/** Removes the target `ref` names: its id, or its 1-based place in the listing. */
export async function removeTarget(home: string, ref: string): Promise<Result<{ settings: DaemonSettings; target: NotifyTarget }>> {
  const current = readSettings(home);
  if (!current.ok) return current;
  const list = current.value.notifyTargets;
  const at = /^\d+$/.test(ref) && !list.some((t) => t.id === ref) ? Number(ref) - 1 : list.findIndex((t) => t.id === ref);
  const target = list[at];
  if (target === undefined) return fail('not-found', `no notice target "${ref}" in ${settingsPath(home)} (mori notify ls lists them)`);
  const written = await writeSettings(home, { ...current.value, notifyTargets: list.filter((_, i) => i !== at) });
  return written.ok ? ok({ settings: written.value, target }) : written;
}
