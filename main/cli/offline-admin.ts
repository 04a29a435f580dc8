// `mori rm` and `mori rename` when no supervisor answers (DESIGN.md §9): nothing else drives the
// session, so the CLI does it itself instead of starting a daemon (which would first launch every
// session meant to run, this one too). The session's lock is taken first: a supervisor that holds it
// (one starting up meanwhile) wins and the command says so. A tmux agent outlives its supervisor: `rm`
// ends its tmux session, `rename` refuses while one runs. What is then done is the supervisor's own
// (supervisor/session/session-removal.ts). Runs in the CLI process.
import path from 'node:path';
import type { LiveSession } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { tryLock } from '../state/pid-lock.js';
import { resolveSession } from '../state/resolve-session.js';
import { readRegistry } from '../state/registry.js';
import { SESSION_LOCK } from '../state/session-summary.js';
import { removeSessionFiles, renameSessionFiles, type RegisteredSession, type Removed } from '../supervisor/session/session-removal.js';
import { TmuxBackend } from '../terminals/tmux/tmux-backend.js';

type Found = RegisteredSession;

/** The registered session S names (by name, id or state dir path), with its id and name from the registry. */
function registered(spec: string, home: string): Result<Found> {
  const dir = resolveSession(spec, process.cwd(), home);
  if (!dir.ok) return dir;
  const registry = readRegistry(home);
  if (!registry.ok) return registry;
  const entry = registry.value.find((e) => path.resolve(e.stateDir) === path.resolve(dir.value));
  return entry ? ok(entry) : fail('not-found', `${dir.value} is not a registered session of this Mori home`);
}

/** Runs `fn` holding the session's lock; refused when a supervisor holds it. */
async function locked<T>(s: Found, fn: (release: () => void) => Promise<Result<T>>): Promise<Result<T>> {
  let lock;
  try {
    lock = tryLock(path.join(s.stateDir, SESSION_LOCK), 'mori rm/rename');
  } catch (err) {
    return fail('unreadable', (err as Error).message);
  }
  if (!lock.ok) return fail('conflict', `session "${s.name}" is driven by a supervisor (pid ${lock.holder?.pid ?? '?'}); try again`);
  let released = false;
  const release = (): void => {
    if (!released) lock.release();
    released = true;
  };
  try {
    return await fn(release);
  } finally {
    release();
  }
}

export async function removeOffline(spec: string, deleteState: boolean, home: string): Promise<Result<Removed>> {
  const s = registered(spec, home);
  if (!s.ok) return s;
  // The lock file goes with a deleted state dir: let go of it first.
  return locked(s.value, (release) => removeSessionFiles({ home, tmux: new TmuxBackend() }, s.value, deleteState, release));
}

export async function renameOffline(spec: string, name: string, home: string): Promise<Result<Pick<LiveSession, 'id' | 'name' | 'stateDir'>>> {
  const s = registered(spec, home);
  if (!s.ok) return s;
  return locked(s.value, async (release) => {
    const tmux = new TmuxBackend();
    if ((await tmux.list().catch(() => [])).some((p) => p.id === s.value.id && p.alive)) {
      return fail('conflict', `session "${s.value.name}" still runs its agent in tmux: stop it first (\`mori stop ${s.value.name}\`), then rename it`);
    }
    // The lock file moves with the dir: let go of it just before.
    const moved = await renameSessionFiles(home, s.value.stateDir, name, release);
    if (!moved.ok) return moved;
    return ok({ id: moved.value.id, name: moved.value.to, stateDir: moved.value.stateDir });
  });
}
