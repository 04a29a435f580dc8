// The checks tab's state and actions (DESIGN.md §7): the listing read on open and again on each
// verification and each change of environment.md or session.json; Verify; the Trust dialog opened on
// request and the approval of what it showed, by its hashes. Runs in the renderer.
import type { ChecksListing, DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { changesChecks, pendingTrust } from './checks-model.js';

export interface ChecksState {
  listing: ChecksListing | null;
  running: boolean;
  status: string;
  /** The Trust dialog is open. */
  trusting: boolean;
}

export class ChecksStore extends PaneStore<ChecksState> {
  constructor(
    private readonly api: MoriApi,
    private readonly sessionId: string,
    private readonly onEvent: (l: (e: DaemonEvent) => void) => () => void,
  ) {
    super({ listing: null, running: false, status: '', trusting: false });
  }

  open(): void {
    void this.load();
    this.whileOpen(
      this.onEvent((e) => {
        if (!changesChecks(e, this.sessionId)) return;
        if (e.type === 'verify.started') this.set({ running: true });
        if (e.type === 'verify.finished') this.set({ running: false });
        void this.load();
      }),
    );
  }

  async load(): Promise<void> {
    const r = await this.api.call('checks.list', { session: this.sessionId });
    if (!r.ok) return this.set({ status: `Cannot list the checks: ${r.message}` });
    this.set({ listing: r.value });
  }

  /** Opens the Trust dialog if the listing asks for an approval; false while the listing is not read yet. */
  askTrust(): boolean {
    const { listing } = this.state;
    if (listing === null) return false;
    const p = pendingTrust(listing);
    if (p.checks || p.agent) this.set({ trusting: true });
    return true;
  }

  showTrust(trusting: boolean): void {
    this.set({ trusting });
  }

  async verify(): Promise<void> {
    this.set({ running: true, status: 'Verifying…' });
    const r = await this.api.call('checks.verify', { session: this.sessionId });
    this.set({ running: false, status: r.ok ? '' : `Verify failed: ${r.message}` });
    await this.load();
  }

  async trust(): Promise<void> {
    const { listing } = this.state;
    if (!listing) return;
    // The dialog stays until the daemon answered: what the person does next finds the approval given.
    this.set({ status: await approveShown(this.api, this.sessionId, listing), trusting: false });
    await this.load();
  }
}

/** Approves what the listing showed, by its hashes; the words for the status line. */
async function approveShown(api: MoriApi, sessionId: string, listing: ChecksListing): Promise<string> {
  const p = pendingTrust(listing);
  const done: string[] = [];
  if (p.checks) {
    const r = await api.call('checks.trust', { session: sessionId, hash: listing.trust.hash });
    if (!r.ok) return `Not trusted: ${r.message}`;
    done.push(`${r.value.items} item${r.value.items === 1 ? '' : 's'}`);
  }
  if (p.agent) {
    const r = await api.call('agent.trust', { session: sessionId, hash: p.agent.hash });
    if (!r.ok) return `${done.length > 0 ? `Trusted ${done.join('')}; the agent command was not` : 'Not trusted'}: ${r.message}`;
    done.push(r.value.started ? 'the agent command; starting the agent' : 'the agent command');
  }
  return `Trusted ${done.join(' and ')}`;
}

