// Turns what a person typed for S — a name, an id, or a state dir path — into one state dir
// (DESIGN.md §9). A name shared by sessions in several projects is resolved by the current
// directory, else reported as ambiguous. Any Node process.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Result } from '../../common/result.js';
import { readRegistry, type RegistryEntry } from './registry.js';
import type { SessionRecord } from '../../common/session.js';
import { readSessionFile } from './session-file.js';
import { SESSION_FILE } from '../../common/state-files.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function resolveSession(spec: string, cwd = process.cwd(), home?: string): Result<string> {
  if (spec.includes('/') || spec.includes(path.sep) || spec === '.' || spec === '..') {
    const dir = path.resolve(cwd, spec);
    if (existsSync(path.join(dir, SESSION_FILE)) && statSync(dir).isDirectory()) return ok(dir);
    return fail('not-found', `${dir}: not a Mori state dir (no ${SESSION_FILE})`);
  }
  const registry = readRegistry(home);
  if (!registry.ok) return registry;
  const entries = registry.value;
  if (UUID.test(spec)) {
    const byId = entries.find((e) => e.id.toLowerCase() === spec.toLowerCase());
    return byId ? ok(byId.stateDir) : fail('not-found', `no session with id ${spec} in the registry`);
  }
  const named = entries.filter((e) => e.name === spec);
  if (named.length === 1 && named[0]) return ok(named[0].stateDir);
  if (named.length === 0) return fail('not-found', `no session named "${spec}" (see \`mori ls\`)`);
  const here = named.filter((e) => isInside(cwd, projectOf(e)));
  if (here.length === 1 && here[0]) return ok(here[0].stateDir);
  return fail(
    'usage',
    `"${spec}" names ${named.length} sessions (${named.map((e) => e.stateDir).join(', ')}); give the id or the state dir path`,
  );
}

function projectOf(e: RegistryEntry): string {
  return path.dirname(path.dirname(e.stateDir));
}

function isInside(dir: string, parent: string): boolean {
  const rel = path.relative(parent, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Resolves S and reads its session.json: what most commands start with. */
export function openSession(spec: string, cwd = process.cwd(), home?: string): Result<{ stateDir: string; session: SessionRecord }> {
  const dir = resolveSession(spec, cwd, home);
  if (!dir.ok) return dir;
  const session = readSessionFile(dir.value);
  return session.ok ? ok({ stateDir: dir.value, session: session.value }) : session;
}
