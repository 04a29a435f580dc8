// The selected session's Rename and Remove actions (DESIGN.md §13): each opens a form dialog
// (ui/form-dialog.tsx over ui/modal.tsx: focus moves in, Escape closes, focus returns to the button
// that opened it). Rename asks for the new name (checked as `mori init` checks one; the daemon
// refuses one in use or while the agent runs).
// Remove says what happens and asks; "Also delete state files" is unticked unless the person ticks it,
// and so is "Also remove its worktree" for a session in its own git worktree: when the daemon refuses
// that (uncommitted or unmerged work) nothing is removed, the dialog says why and offers "Remove anyway".
// Both go through the daemon (`session.rename`, `session.remove`): the list follows from its events.
// Runs in the renderer.
import { useState } from 'preact/hooks';
import type { IpcResult, SessionInfo } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { SESSION_NAME_PATTERN } from '../../common/session-names.js';
import { FormDialog } from '../ui/form-dialog.js';

const RENAME_ERROR_ID = 'rename-session-error';
const WORKTREE_HINT_ID = 'remove-session-worktree-hint';
const REMOVE_SUMMARY_ID = 'remove-session-summary';

export function SessionManage(props: { api: MoriApi; session: SessionInfo; onStatus: (text: string) => void }) {
  const [open, setOpen] = useState<'rename' | 'remove' | null>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen('rename')}>
        Rename
      </button>
      <button type="button" onClick={() => setOpen('remove')}>
        Remove
      </button>
      {open === 'rename' ? <RenameDialog api={props.api} session={props.session} onClose={() => setOpen(null)} onStatus={props.onStatus} /> : null}
      {open === 'remove' ? <RemoveDialog api={props.api} session={props.session} onClose={() => setOpen(null)} onStatus={props.onStatus} /> : null}
    </>
  );
}

function RenameDialog(props: { api: MoriApi; session: SessionInfo; onClose: () => void; onStatus: (text: string) => void }) {
  // A remote session (`box:work`) is renamed on its host: the name edited is the part after `box:`.
  const colon = props.session.name.indexOf(':');
  const host = colon > 0 ? props.session.name.slice(0, colon + 1) : '';
  const current = props.session.name.slice(host.length);
  const [name, setName] = useState(current);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const rename = async (): Promise<void> => {
    if (!SESSION_NAME_PATTERN.test(name)) return setError('A name is lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.');
    if (name === current) return props.onClose();
    setBusy(true);
    setError('');
    const r = await props.api.call('session.rename', { session: props.session.id, name });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    props.onStatus(`Renamed ${props.session.name} to ${r.value.name}.`);
    props.onClose();
  };
  return (
    <FormDialog title="Rename session" onCancel={props.onClose} onSubmit={() => void rename()} error={error} errorId={RENAME_ERROR_ID} primary={{ label: 'Rename', disabled: busy }}>
      <p class="muted">The session keeps its id; its state dir moves to .mori/&lt;new name&gt;/. Only a stopped session can be renamed.</p>
      <label>
        New name{host ? ` (on ${host.slice(0, -1)})` : ''}
        <input value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} required {...(error ? { 'aria-invalid': true, 'aria-describedby': RENAME_ERROR_ID } : {})} />
      </label>
    </FormDialog>
  );
}

/** What the status line says once a session is removed. */
function removedText(r: IpcResult<'session.remove'>): string {
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

function RemoveDialog(props: { api: MoriApi; session: SessionInfo; onClose: () => void; onStatus: (text: string) => void }) {
  const [deleteState, setDeleteState] = useState(false);
  const [removeWorktree, setRemoveWorktree] = useState(false);
  const [error, setError] = useState('');
  /** The daemon refused to remove the worktree (uncommitted or unmerged work): "Remove anyway" is offered. */
  const [refused, setRefused] = useState(false);
  const [busy, setBusy] = useState(false);
  const branch = props.session.branch;
  const remove = async (force: boolean): Promise<void> => {
    setBusy(true);
    setError('');
    setRefused(false);
    const r = await props.api.call('session.remove', { session: props.session.id, deleteState, ...(removeWorktree ? { removeWorktree, force } : {}) });
    setBusy(false);
    if (!r.ok) {
      setRefused(removeWorktree && !force && r.code === 'conflict');
      return setError(r.message);
    }
    props.onStatus(removedText(r.value));
    props.onClose();
  };
  return (
    <FormDialog
      title={`Remove session ${props.session.name}?`}
      onCancel={props.onClose}
      onSubmit={() => void remove(false)}
      error={error}
      errorMore={refused ? <p>Remove anyway removes the session and deletes the worktree, uncommitted changes included; its commits stay on branch {branch}.</p> : null}
      primary={{ label: 'Remove', disabled: busy }}
      extra={
        refused ? (
          // Never the form's default: forcing takes this second, explicit click (Enter submits the plain Remove).
          <button type="button" class="danger" disabled={busy} onClick={() => void remove(true)}>
            Remove anyway
          </button>
        ) : null
      }
    >
      <p id={REMOVE_SUMMARY_ID}>{removeSummary(props.session.stateDir, deleteState, branch !== undefined && removeWorktree)}</p>
      <label class="inline">
        <input type="checkbox" checked={deleteState} onChange={(e) => setDeleteState((e.target as HTMLInputElement).checked)} />
        Also delete state files
      </label>
      {branch ? (
        <>
          <label class="inline">
            <input
              type="checkbox"
              checked={removeWorktree}
              aria-describedby={WORKTREE_HINT_ID}
              onChange={(e) => {
                setRemoveWorktree((e.target as HTMLInputElement).checked);
                setRefused(false);
                setError('');
              }}
            />
            Also remove its worktree
          </label>
          <p class="muted" id={WORKTREE_HINT_ID}>
            It runs in its own git worktree, {props.session.projectDir ?? ''}, on branch {branch}. Removing the worktree deletes its files, state files included; the branch
            and its commits stay. Mori refuses while it has uncommitted changes or commits no other branch holds.
          </p>
        </>
      ) : null}
    </FormDialog>
  );
}
