// The Restore dialog of the Changes tab (DESIGN.md §4, §13): asks the daemon for the rollback's plan
// first (a dry run: nothing is written) and shows exactly which files it will restore, delete or leave
// alone, then restores only when the person confirms. While the agent is working it says so and the
// person must tick an explicit confirmation (the daemon answers `busy` without it, which brings the
// same confirmation up if the agent started meanwhile); its state and calls are restore-store.ts's.
// Runs in the renderer.
import { useEffect } from 'preact/hooks';
import type { CheckpointInfo, RollbackAction, RollbackOutcome } from '../../common/checkpoints.js';
import type { MoriApi } from '../../common/mori-api.js';
import { RestoreStore } from './restore-store.js';
import { DialogFooter } from '../ui/form-dialog.js';
import { Modal } from '../ui/modal.js';
import { usePane } from '../ui/pane-store.js';
import { Shown, shown } from '../ui/shown-text.js';

const VERB: Record<RollbackAction['action'], string> = { restore: 'restore', delete: 'delete', skip: 'leave alone' };

export function RestoreDialog(props: { api: MoriApi; sessionId: string; to: CheckpointInfo; files: string[]; agentWorking: boolean; onClose: () => void; onDone: (r: RollbackOutcome) => void }) {
  const { to, files } = props;
  const [store, { plan, error, busyWarning, confirmBusy, running }] = usePane(() => new RestoreStore(props.api, props.sessionId, to, files, props.agentWorking));
  useEffect(() => store.agentWorking(props.agentWorking), [props.agentWorking]);
  const changing = plan?.filter((a) => a.action !== 'skip') ?? [];
  const restore = async (): Promise<void> => {
    const done = await store.restore();
    if (done) props.onDone(done);
  };

  const what = files.length === 1 ? files[0] : 'files';
  return (
    <Modal title={`Restore ${what} to checkpoint #${to.seq}?`} onClose={props.onClose} wide>
      <p>
        Files are put back as checkpoint #{to.seq} ({to.id}, {new Date(to.at).toLocaleString()}) recorded them. The current state is checkpointed first: restoring to that
        checkpoint undoes this.
      </p>
      {plan === null && !error ? <p class="muted">Working out which files change…</p> : null}
      {plan !== null ? (
        changing.length === 0 ? (
          <p>Nothing to change: the files are as the checkpoint has them.</p>
        ) : (
          <p>
            {changing.length} file{changing.length === 1 ? '' : 's'} will change:
          </p>
        )
      ) : null}
      {plan !== null && plan.length > 0 ? (
        <ul class="restore-plan" aria-label="Files the restore changes">
          {plan.map((a) => (
            <li key={a.path} class={`restore-${a.action}`}>
              <span class="tag">{VERB[a.action]}</span>{' '}
              <code>
                <Shown text={a.path} />
              </code>
              {a.why ? <span class="muted"> — {shown(a.why)}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {busyWarning ? (
        <div class="banner restore-busy" role="alert">
          The agent is working: restoring now could mix its edits with the restored files.
        </div>
      ) : null}
      {busyWarning ? (
        <label class="inline restore-confirm">
          <input type="checkbox" checked={confirmBusy} onChange={(e) => store.confirm(e.currentTarget.checked)} /> Restore while the agent is working
        </label>
      ) : null}
      <DialogFooter
        error={error}
        onCancel={props.onClose}
        primary={{ danger: true, label: running ? 'Restoring…' : 'Restore', disabled: running || plan === null || changing.length === 0 || (busyWarning && !confirmBusy), onClick: () => void restore() }}
      />
    </Modal>
  );
}
