// The sessions one supervisor holds: loading a registered state dir (its session.json, profile and
// lock; its crash history read back onto this supervisor's awake clock; an intent a failed write
// left pending honoured), finding one by name, id or path, and letting go of all. Only registered
// sessions are loaded: an unregistered state dir's session.json names the command a shell/custom
// profile runs, and nothing unregistered may choose what Mori executes. A session being removed or
// renamed is held out of loading from the moment it is let go until its registry entry is rewritten:
// the registry's watch, reading the old entry in between, would otherwise load it again (a ghost
// holding the state dir's lock). Runs in the supervisor's process.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Failure, type Result } from '../../../common/result.js';
import { getProfile } from '../../agents/profiles.js';
import type { PowerClock } from '../../power/clock.js';
import { bootId } from '../../os/boot-id.js';
import { tryLock, type LockAttempt } from '../../state/pid-lock.js';
import { readRegistry } from '../../state/registry.js';
import { readSessionFile, sessionFilePath } from '../../state/session-file.js';
import { assertStatePath, UnsafeStateFile } from '../../state/state-file-guard.js';
import { SESSION_LOCK } from '../../state/session-summary.js';
import { crashTimes, systemAwakeMs } from './restart-history.js';
import { SessionRuntime } from './session-runtime.js';
import { readStateProblem } from './state-problems.js';

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

export class SessionSet {
  private readonly byId = new Map<string, SessionRuntime>();
  /** Ids held out of loading, each with how many removals or renames hold it. */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly home: string,
    private readonly clock: PowerClock,
  ) {}

  all(): SessionRuntime[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  /** Whether `stateDir` is in this home's registry (compared by real path). */
  registered(stateDir: string): Result<true> {
    const registry = readRegistry(this.home);
    if (!registry.ok) return registry;
    const want = real(stateDir);
    if (registry.value.some((e) => real(e.stateDir) === want)) return ok(true);
    return fail('not-found', `${stateDir} is not a registered session of this Mori home; only registered sessions start (\`mori init\` registers one)`);
  }

  /** Loads a registered session (or returns it when loaded already) and takes its lock. */
  load(stateDir: string): Result<SessionRuntime> {
    try {
      // `.mori/` and the state dir are real directories, not symlinks to elsewhere (DESIGN.md §11).
      assertStatePath(sessionFilePath(stateDir), stateDir);
    } catch (err) {
      if (err instanceof UnsafeStateFile) return fail('unreadable', err.message);
    }
    const file = readSessionFile(stateDir);
    if (!file.ok) return file;
    const existing = this.byId.get(file.value.id);
    if (existing) return ok(existing);
    if (this.isHeld(file.value.id)) return fail('conflict', `${stateDir}: the session is being removed or renamed`);
    const profile = getProfile(file.value.agent.profile);
    if (!profile.ok) return profile;
    let lock: LockAttempt;
    try {
      lock = tryLock(path.join(stateDir, SESSION_LOCK), 'supervisor');
    } catch (err) {
      return fail('unreadable', (err as Error).message); // a lock that is not a file (a FIFO, a symlink)
    }
    if (!lock.ok) return fail('conflict', `${stateDir}: supervised by another process (pid ${lock.holder?.pid ?? '?'})`);
    let session = file.value;
    // A stop (or any intent) the last supervisor could not write still holds.
    const problem = readStateProblem(this.home, session.id);
    if (problem?.pendingIntent) session = { ...session, intent: problem.pendingIntent };
    const crashes = crashTimes(session.restartHistory, { wallMs: this.clock.wallMs(), systemAwakeMs: systemAwakeMs(), bootId: bootId(), monoMs: this.clock.monoMs() });
    const rt = new SessionRuntime(stateDir, session, profile.value, { attempt: crashes.length, crashes }, lock.release);
    this.byId.set(rt.id, rt);
    return ok(rt);
  }

  find(ref: string): Result<SessionRuntime> {
    const byId = this.byId.get(ref);
    if (byId) return ok(byId);
    const named = this.all().filter((r) => r.name === ref || path.resolve(r.stateDir) === path.resolve(ref));
    if (named.length === 1 && named[0]) return ok(named[0]);
    if (named.length > 1) return fail('usage', `"${ref}" names ${named.length} sessions; give the id`);
    return fail('not-found', `no session "${ref}" in this supervisor (see \`mori ls\`)`);
  }

  /** What `fn` makes of the session `ref` names (name, id or state dir), or why there is none. */
  withSession<T>(ref: string, fn: (rt: SessionRuntime) => T): T | Failure {
    const found = this.find(ref);
    return found.ok ? fn(found.value) : found;
  }

  byStateDir(dir: string): SessionRuntime | undefined {
    const want = path.resolve(dir);
    return this.all().find((r) => path.resolve(r.stateDir) === want);
  }

  /** Lets go of one session (its lock and timers) and forgets it: it was removed or is being renamed. */
  forget(id: string): void {
    const rt = this.byId.get(id);
    if (!rt) return;
    rt.timers.clear();
    rt.releaseLock();
    this.byId.delete(id);
  }

  /**
   * Keeps the session `id` from being loaded until the returned function is called: a removal or a
   * rename holds it from before it lets go of the session until the registry says where it went.
   */
  hold(id: string): () => void {
    this.held.set(id, (this.held.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.held.get(id) ?? 1) - 1;
      if (n > 0) this.held.set(id, n);
      else this.held.delete(id);
    };
  }

  /** Whether a removal or a rename holds `id` out of loading. */
  isHeld(id: string): boolean {
    return this.held.has(id);
  }

  /** Lets go of every session's lock (and forgets them when `forget`). */
  release(forget: boolean): void {
    for (const rt of this.byId.values()) rt.releaseLock();
    if (forget) this.byId.clear();
  }
}
