// What removing and renaming a session do once nothing drives it (DESIGN.md §9): the one
// implementation the supervisor's SessionAdmin and `mori rm`/`mori rename` without a daemon
// (cli/offline-admin.ts) both run. A removal ends a tmux session left of its id, takes the session
// out of the registry, drops the person's approvals for its state dir, clears a state problem
// recorded for it and, only when asked, deletes the state dir; a rename moves the state dir
// (state/session-move.ts) and carries the approvals over. The caller has stopped the agent and let go
// of the session first; its sandbox's network proxy goes with it. A session's own git worktree (git/session-worktree.ts) goes after it only when
// asked, the branch always kept: checked before anything is removed and again once the session is
// gone (its agent may have written meanwhile); uncommitted changes or commits no other branch holds
// refuse it (`conflict`) unless forced. Runs in the supervisor's process (the daemon's `session.remove`)
// and in the CLI.
import { rmSync } from 'node:fs';
import { fail, ok, type Result } from '../../../common/result.js';
import { sessionNetProxyDir, stopNetProxy } from '../../sandbox/net-proxy-process.js';
import type { SessionWorktree } from '../../../common/session.js';
import { moveApprovals, stateDirKey } from '../../checks/trust-store.js';
import { checkedForRemoval, removeSessionWorktree, sessionWorktreeOf } from '../../git/session-worktree.js';
import { readSessionFile } from '../../state/session-file.js';
import { renameStateDir, unregisterSession, type Renamed } from '../../state/session-move.js';
import type { TmuxBackend } from '../../terminals/tmux/tmux-backend.js';
import { clearStateProblem } from './state-problems.js';

/** A session as the registry names it. */
export interface RegisteredSession {
  id: string;
  name: string;
  stateDir: string;
}

export interface Removed extends RegisteredSession {
  stateDeleted: boolean;
}

/** Where a removal or a rename acts: the Mori home, and the tmux server a session may have left a pane in. */
export interface SessionFilesPlace {
  home: string;
  tmux: Pick<TmuxBackend, 'remove'> | null;
}

/**
 * Removes a session nothing drives any more. `beforeDelete` runs just before the state dir is
 * deleted (a caller holding the session's lock, whose file goes with it, lets go of it there).
 */
export async function removeSessionFiles(place: SessionFilesPlace, s: RegisteredSession, deleteState: boolean, beforeDelete: () => void = () => undefined): Promise<Result<Removed>> {
  // A dead pane left behind, or a tmux session no supervisor attached, goes with the session.
  await place.tmux?.remove(s.id).catch(() => undefined);
  // Its sandbox's network proxy, which a tmux agent ended without a supervisor may have left.
  const proxyDir = sessionNetProxyDir(place.home, s.id);
  await stopNetProxy(proxyDir);
  rmSync(proxyDir, { recursive: true, force: true });
  const key = stateDirKey(s.stateDir);
  if (deleteState) beforeDelete();
  const gone = await unregisterSession(s.id, s.stateDir, deleteState, place.home);
  if (!gone.ok) return gone;
  await moveApprovals(place.home, key, null);
  clearStateProblem(place.home, s.id);
  return ok({ id: s.id, name: s.name, stateDir: s.stateDir, stateDeleted: gone.value.stateDeleted });
}

/** Renames a session nothing drives; `beforeMove` runs just before its state dir moves (its lock file moves with it). */
export async function renameSessionFiles(home: string, stateDir: string, name: string, beforeMove: () => void = () => undefined): Promise<Result<Renamed>> {
  beforeMove();
  const moved = await renameStateDir(stateDir, name, home);
  if (!moved.ok) return moved;
  await moveApprovals(home, moved.value.oldStateDir, moved.value.stateDir);
  return moved;
}

/** What a removal does with the session's own worktree: keep it, or remove it after the session (`force`: whatever it holds). */
export interface WorktreeChoice {
  removeWorktree: boolean;
  force: boolean;
}

/** A removal's answer: the session, and its own worktree when it had one, removed or kept. */
export type RemovedWithWorktree = Removed & { worktree?: SessionWorktree & { removed: boolean } };

/** The own worktree of the session in `stateDir`, or null; when `strict` (it is to be removed) a session or worktree that cannot be read is the answer. */
export function sessionWorktreeAt(stateDir: string, home: string, strict: boolean): Result<SessionWorktree | null> {
  const session = readSessionFile(stateDir);
  if (!session.ok) return strict ? session : ok(null);
  const wt = sessionWorktreeOf(stateDir, session.value, home);
  return wt.ok || strict ? wt : ok(null);
}

/** Removes session `ref` by `remove` (which stops it first), then its worktree `tree` as `choice` says. */
export async function removeWithWorktree(ref: string, tree: SessionWorktree | null, choice: WorktreeChoice, remove: () => Promise<Result<Removed>>): Promise<Result<RemovedWithWorktree>> {
  if (choice.removeWorktree) {
    if (tree === null) return fail('usage', `session "${ref}" has no worktree of its own`);
    const checked = await checkedForRemoval(tree, choice.force);
    if (!checked.ok) return fail(checked.code, `${checked.message}; nothing was removed`);
  }
  const r = await remove();
  if (!r.ok || tree === null) return r;
  if (!choice.removeWorktree) return ok({ ...r.value, worktree: { ...tree, removed: false } });
  const again = await checkedForRemoval(tree, choice.force);
  if (!again.ok) return fail('failed', `removed session "${r.value.name}", but kept its worktree: ${again.message}`);
  const gone = await removeSessionWorktree(tree);
  if (!gone.ok) return fail(gone.code, `removed session "${r.value.name}", but not its worktree: ${gone.message}`);
  return ok({ ...r.value, worktree: { ...tree, removed: true } });
}
