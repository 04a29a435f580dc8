// When the person last looked at the report of the time away, per place they look from (`cli`: `mori
// report`; `window`: the window's "While you were away"): $MORI_HOME/last-looked.json, the person's
// own folder, never a project's (an agent must not move the mark). A file that cannot be read is
// reported with its path and left as it is, never overwritten. Any Node process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomic } from './atomic-write.js';
import { ensureHome } from './registry.js';

export type LookPlace = 'cli' | 'window';

const Marks = z.record(z.string(), z.number());

export function lastLookedPath(home: string): string {
  return path.join(home, 'last-looked.json');
}

/** Every place's mark (ms since the epoch); none when the file does not exist. */
export function readLastLooked(home: string): Result<Record<string, number>> {
  const file = lastLookedPath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok({});
    return fail('unreadable', `${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return fail('unreadable', `${file}: not JSON (${(err as Error).message}); left as it is`);
  }
  const parsed = Marks.safeParse(data);
  return parsed.success ? ok(parsed.data) : fail('unreadable', `${file}: not a map of places to times; left as it is`);
}

/** Moves one place's mark to `atMs`; a file that cannot be read is left alone (the failure says why). */
export async function markLooked(home: string, place: LookPlace, atMs: number): Promise<Result<void>> {
  const marks = readLastLooked(home);
  if (!marks.ok) return marks;
  ensureHome(home);
  await writeAtomic(lastLookedPath(home), `${JSON.stringify({ ...marks.value, [place]: atMs }, null, 2)}\n`, 0o600);
  return ok(undefined);
}
