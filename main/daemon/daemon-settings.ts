// The daemon's settings file, `$MORI_HOME/settings.json` (DESIGN.md §12): read with the zod schema of
// common/daemon-settings.ts (a missing file is the defaults), written atomically, mode 0600. A file
// that does not parse is reported and left in place, never overwritten silently. Runs in the daemon.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DaemonSettings } from '../../common/daemon-settings.js';
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
  await writeAtomic(settingsPath(home), JSON.stringify(parsed.data, null, 2) + '\n', 0o600);
  return ok(parsed.data);
}
