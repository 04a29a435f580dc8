// The registry, $MORI_HOME/registry.json: which state dirs exist, so `mori ls` and the supervisor find
// every session without scanning disks. Written atomically under a short lock, so concurrent
// `mori init`s never lose an entry. A corrupt registry is reported and left in place. Any Node process.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import '../../common/zod-english.js';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomicSync } from './atomic-write.js';
import { moriHome } from './mori-home.js';
import { withLock } from './pid-lock.js';

export const RegistryEntry = z.object({ id: z.string(), name: z.string(), stateDir: z.string() });
export type RegistryEntry = z.infer<typeof RegistryEntry>;
const RegistryFile = z.object({ schemaVersion: z.literal(1), sessions: z.array(RegistryEntry) });

export function registryPath(home = moriHome()): string {
  return path.join(home, 'registry.json');
}

/** Creates $MORI_HOME with mode 0700: it will hold the control socket (DESIGN.md §11). */
export function ensureHome(home = moriHome()): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

export function readRegistry(home = moriHome()): Result<RegistryEntry[]> {
  const file = registryPath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok([]);
    return fail('unreadable', `${file}: cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail('unreadable', `${file}: not valid JSON (${(err as Error).message}); left as it is`);
  }
  const parsed = RegistryFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('unreadable', `${file}: ${issue?.path.join('.') || 'top level'}: ${issue?.message}; left as it is`);
  }
  return ok(parsed.data.sessions);
}

/** Applies `change` to the registry under its lock and writes it atomically. */
export async function updateRegistry(change: (entries: RegistryEntry[]) => RegistryEntry[], home = moriHome()): Promise<Result<RegistryEntry[]>> {
  ensureHome(home);
  return withLock(path.join(home, 'registry.lock'), 'registry update', () => {
    const current = readRegistry(home);
    if (!current.ok) return current;
    const next = change(current.value);
    writeAtomicSync(registryPath(home), JSON.stringify({ schemaVersion: 1, sessions: next }, null, 2) + '\n');
    return ok(next);
  });
}

export function addToRegistry(entry: RegistryEntry, home = moriHome()): Promise<Result<RegistryEntry[]>> {
  return updateRegistry((entries) => [...entries.filter((e) => e.id !== entry.id && path.resolve(e.stateDir) !== path.resolve(entry.stateDir)), entry], home);
}

export function removeFromRegistry(id: string, home = moriHome()): Promise<Result<RegistryEntry[]>> {
  return updateRegistry((entries) => entries.filter((e) => e.id !== id), home);
}
