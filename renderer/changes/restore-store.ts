// The Restore dialog's state and actions (DESIGN.md §4, §13): the rollback's plan asked for first (a
// dry run: nothing is written), then the restore itself, with the confirmation the daemon asks for
// while the agent is working (it answers `busy` without one, which brings the confirmation up if the
// agent started meanwhile). Runs in the renderer.
import type { CheckpointInfo, RollbackAction, RollbackOutcome } from '../../common/checkpoints.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';

export interface RestoreState {
  /** What the restore will do with each file, once the dry run answered. */
  plan: RollbackAction[] | null;
  error: string;
  /** The agent is (or was, since the dialog opened) working: the restore waits for an explicit tick. */
  busyWarning: boolean;
  confirmBusy: boolean;
  running: boolean;
}

export class RestoreStore extends PaneStore<RestoreState> {
  constructor(
    private readonly api: MoriApi,
    private readonly sessionId: string,
    private readonly to: CheckpointInfo,
    private readonly files: string[],
    agentWorking: boolean,
  ) {
    super({ plan: null, error: '', busyWarning: agentWorking, confirmBusy: false, running: false });
  }

  open(): void {
    void this.api.call('rollback', { session: this.sessionId, to: this.to.commit, files: this.files, dryRun: true, confirm: false }).then((r) => {
      if (r.ok) this.set({ plan: r.value.actions });
      else this.set({ error: `Cannot plan the restore: ${r.message}` });
    });
  }

  /** The agent started working while the dialog is open: the warning stays once shown. */
  agentWorking(working: boolean): void {
    if (working && !this.state.busyWarning) this.set({ busyWarning: true });
  }

  confirm(confirmBusy: boolean): void {
    this.set({ confirmBusy });
  }

  /** Restores; the outcome when it ran, null when the daemon refused (the dialog then says why). */
  async restore(): Promise<RollbackOutcome | null> {
    const { busyWarning, confirmBusy } = this.state;
    this.set({ running: true, error: '' });
    const r = await this.api.call('rollback', { session: this.sessionId, to: this.to.commit, files: this.files, dryRun: false, confirm: busyWarning && confirmBusy });
    this.set({ running: false });
    if (r.ok) return r.value;
    if (r.code === 'busy') this.set({ busyWarning: true, confirmBusy: false });
    this.set({ error: r.message });
    return null;
  }
}
