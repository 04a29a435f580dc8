// What removing and renaming a session do once nothing drives it (DESIGN.md §9): the one
// implementation the supervisor's SessionAdmin and `mori rm`/`mori rename` without a daemon
// (cli/offline-admin.ts) both run. A removal ends a tmux session left of its id, takes the session
// out of the registry, drops the person's approvals for its state dir, clears a state problem
// recorded for it and, only when asked, deletes the state dir; a rename moves the state dir
// (state/session-move.ts) and carries the approvals over. The caller has stopped the agent and let go
// of the session first. Runs in the supervisor's process and in the CLI.
import { ok, type Result } from '../../../common/result.js';
import { moveApprovals, stateDirKey } from '../../checks/trust-store.js';
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
