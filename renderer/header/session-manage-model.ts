// Rename and Remove, decided (DESIGN.md §13): the name a rename edits (a remote session's part after
// `host:`), what removal will do with the boxes as ticked, and what the status line says after it.
// Pure. Runs in the renderer.
import type { IpcResult } from '../../common/ipc.js';

/** A session's name split for a rename: a remote session (`box:work`) is renamed on its host, `box:` kept. */
export function renameParts(fullName: string): { host: string; name: string } {
  const colon = fullName.indexOf(':');
  const host = colon > 0 ? fullName.slice(0, colon + 1) : '';
  return { host, name: fullName.slice(host.length) };
}

/** What the status line says once a session is removed. */
export function removedText(r: IpcResult<'session.remove'>): string {
  const tree = r.worktree;
  if (tree?.removed) return `Removed ${r.name} and its worktree ${tree.path} (branch ${tree.branch} kept).`;
  const files = r.stateDeleted ? ' and deleted its state files' : `; its state files are kept in ${r.stateDir}`;
  return `Removed ${r.name}${files}.${tree ? ` Its worktree is kept at ${tree.path} (branch ${tree.branch}).` : ''}`;
}

/** What removal will do with the boxes as ticked: the first thing the dialog says, kept true as they change. */
export function removeSummary(stateDir: string, deleteState: boolean, removeWorktree: boolean): string {
  const files = removeWorktree
    ? 'Its worktree is deleted with its files, state files included.'
    : deleteState
      ? `Its state files in ${stateDir} are deleted too.`
      : `Its state files stay in ${stateDir}.`;
  return `Its agent is stopped and Mori forgets the session. ${files}`;
}
