// The selected session's Rename and Remove actions (DESIGN.md §13): each opens a dialog (modal.tsx:
// focus moves in, Escape closes, focus returns to the button that opened it). Rename asks for the new
// name (checked as `mori init` checks one; the daemon refuses one in use or while the agent runs).
// Remove says what happens and asks; "Also delete state files" is unticked unless the person ticks it.
// Both go through the daemon (`session.rename`, `session.remove`): the list follows from its events.
// Runs in the renderer.
import { useState } from 'preact/hooks';
import type { SessionInfo } from '../common/ipc.js';
import type { MoriApi } from '../common/mori-api.js';
import { SESSION_NAME_PATTERN } from '../common/session.js';
import { Modal } from './modal.js';

const RENAME_ERROR_ID = 'rename-session-error';

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
  const [name, setName] = useState(props.session.name);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const rename = async (): Promise<void> => {
    if (!SESSION_NAME_PATTERN.test(name)) return setError('A name is lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.');
    if (name === props.session.name) return props.onClose();
    setBusy(true);
    setError('');
    const r = await props.api.call('session.rename', { session: props.session.id, name });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    props.onStatus(`Renamed ${props.session.name} to ${r.value.name}.`);
    props.onClose();
  };
  return (
    <Modal title="Rename session" onClose={props.onClose}>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void rename();
        }}
      >
        <p class="muted">The session keeps its id; its state dir moves to .mori/&lt;new name&gt;/. Only a stopped session can be renamed.</p>
        <label>
          New name
          <input value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} required {...(error ? { 'aria-invalid': true, 'aria-describedby': RENAME_ERROR_ID } : {})} />
        </label>
        {error ? (
          <p class="error" role="alert" id={RENAME_ERROR_ID}>
            {error}
          </p>
        ) : null}
        <div class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            Rename
          </button>
        </div>
      </form>
    </Modal>
  );
}

function RemoveDialog(props: { api: MoriApi; session: SessionInfo; onClose: () => void; onStatus: (text: string) => void }) {
  const [deleteState, setDeleteState] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const remove = async (): Promise<void> => {
    setBusy(true);
    setError('');
    const r = await props.api.call('session.remove', { session: props.session.id, deleteState });
    setBusy(false);
    if (!r.ok) return setError(r.message);
    props.onStatus(`Removed ${r.value.name}${r.value.stateDeleted ? ' and deleted its state files' : `; its state files are kept in ${r.value.stateDir}`}.`);
    props.onClose();
  };
  return (
    <Modal title={`Remove session ${props.session.name}?`} onClose={props.onClose}>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void remove();
        }}
      >
        <p>Its agent is stopped and Mori forgets the session. Its state files stay in {props.session.stateDir} unless you delete them too.</p>
        <label class="inline">
          <input type="checkbox" checked={deleteState} onChange={(e) => setDeleteState((e.target as HTMLInputElement).checked)} />
          Also delete state files
        </label>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <div class="dialog-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            Remove
          </button>
        </div>
      </form>
    </Modal>
  );
}
