// The selected session's Rename and Remove dialogs, opened from the header's More actions menu or the
// palette (DESIGN.md §13): each a form dialog (ui/form-dialog.tsx over ui/modal.tsx: focus moves in,
// Escape closes, focus returns to where it was). Rename asks for the new name (checked as `mori init` checks one; the daemon
// refuses one in use or while the agent runs).
// Remove says what happens and asks; "Also delete state files" is unticked unless the person ticks it,
// and so is "Also remove its worktree" for a session in its own git worktree: when the daemon refuses
// that (uncommitted or unmerged work) nothing is removed, the dialog says why and offers "Remove anyway".
// Both go through the daemon (`session.rename`, `session.remove`) from session-manage-store.ts: the
// list follows from its events. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { FormDialog } from '../ui/form-dialog.js';
import { usePane } from '../ui/pane-store.js';
import { removeSummary } from './session-manage-model.js';
import { RemoveStore, RenameStore } from './session-manage-store.js';

const RENAME_ERROR_ID = 'rename-session-error';
const WORKTREE_HINT_ID = 'remove-session-worktree-hint';
const REMOVE_SUMMARY_ID = 'remove-session-summary';

export function RenameDialog(props: { api: MoriApi; session: LiveSession; onClose: () => void; onStatus: (text: string) => void }) {
  const [store, { name, error, busy }] = usePane(() => new RenameStore(props.api, props.session));
  const { host } = store;
  const rename = async (): Promise<void> => {
    const words = await store.rename();
    if (words === null) return;
    if (words) props.onStatus(words);
    props.onClose();
  };
  return (
    <FormDialog title="Rename session" onCancel={props.onClose} onSubmit={() => void rename()} error={error} errorId={RENAME_ERROR_ID} primary={{ label: 'Rename', disabled: busy }}>
      <p class="muted">The session keeps its id; its state dir moves to .mori/&lt;new name&gt;/. Only a stopped session can be renamed.</p>
      <label>
        New name{host ? ` (on ${host.slice(0, -1)})` : ''}
        <input value={name} onInput={(e) => store.setName((e.target as HTMLInputElement).value)} required {...(error ? { 'aria-invalid': true, 'aria-describedby': RENAME_ERROR_ID } : {})} />
      </label>
    </FormDialog>
  );
}

export function RemoveDialog(props: { api: MoriApi; session: LiveSession; onClose: () => void; onStatus: (text: string) => void }) {
  const [store, { deleteState, removeWorktree, error, refused, busy }] = usePane(() => new RemoveStore(props.api, props.session));
  const branch = props.session.branch;
  const remove = async (force: boolean): Promise<void> => {
    const words = await store.remove(force);
    if (words === null) return;
    props.onStatus(words);
    props.onClose();
  };
  return (
    <FormDialog
      title={`Remove session ${props.session.name}?`}
      onCancel={props.onClose}
      onSubmit={() => void remove(false)}
      error={error}
      errorMore={refused ? <p>Remove anyway removes the session and deletes the worktree, uncommitted changes included; its commits stay on branch {branch}.</p> : null}
      primary={{ label: 'Remove', disabled: busy, danger: true }}
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
        <input type="checkbox" checked={deleteState} onChange={(e) => store.setDeleteState((e.target as HTMLInputElement).checked)} />
        Also delete state files
      </label>
      {branch ? (
        <>
          <label class="inline">
            <input
              type="checkbox"
              checked={removeWorktree}
              aria-describedby={WORKTREE_HINT_ID}
              onChange={(e) => store.setRemoveWorktree((e.target as HTMLInputElement).checked)}
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
