// The selected session's "Continue with…" dialog, opened from the header's More actions menu or the
// palette (DESIGN.md §13): which agent continues the session, and why (optional, for the work log and
// the new agent); a form dialog (ui/form-dialog.tsx) whose primary button hands it over through
// handoff-store.ts. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { FormDialog } from '../ui/form-dialog.js';
import { usePane } from '../ui/pane-store.js';
import { HandoffStore } from './handoff-store.js';

const HANDOFF_ERROR_ID = 'handoff-session-error';

export function HandoffDialog(props: { api: MoriApi; session: LiveSession; onClose: () => void; onStatus: (text: string) => void }) {
  const [store, { profile, reason, error, busy }] = usePane(() => new HandoffStore(props.api, props.session));
  const from = props.session.profile;
  const handOff = async (): Promise<void> => {
    const words = await store.handOff();
    if (words === null) return;
    props.onStatus(words);
    props.onClose();
  };
  return (
    <FormDialog
      title={`Continue ${props.session.name} with another agent`}
      onCancel={props.onClose}
      onSubmit={() => void handOff()}
      error={error}
      errorId={HANDOFF_ERROR_ID}
      primary={{ label: profile ? `Continue with ${profile}` : 'Continue', disabled: busy || store.choices.length === 0 }}
    >
      <p>
        {from ? `Its ${from} agent is stopped; its conversation is kept to go back to.` : 'Its agent is stopped; its conversation is kept to go back to.'} The new agent starts in the same folder
        with the resume prompt: the task, next steps, decisions and files touched, and who worked before it.
      </p>
      <label>
        Agent
        <select value={profile} onChange={(e) => store.setProfile((e.target as HTMLSelectElement).value)} {...(error ? { 'aria-invalid': true, 'aria-describedby': HANDOFF_ERROR_ID } : {})}>
          {store.choices.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Why (optional)
        <input value={reason} maxLength={200} placeholder="its quota ran out" onInput={(e) => store.setReason((e.target as HTMLInputElement).value)} />
      </label>
    </FormDialog>
  );
}
