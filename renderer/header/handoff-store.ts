// The "Continue with…" dialog's state and action (DESIGN.md §13): the agent chosen among those the
// session can be handed to, an optional reason, then `session.handoff`; the list follows from the
// daemon's events. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { handedOffText, handoffChoices } from './handoff-model.js';

export interface HandoffState {
  profile: string;
  reason: string;
  error: string;
  busy: boolean;
}

export class HandoffStore extends PaneStore<HandoffState> {
  readonly choices: string[];

  constructor(
    private readonly api: MoriApi,
    private readonly session: LiveSession,
  ) {
    const choices = handoffChoices(session.profile);
    super({ profile: choices[0] ?? '', reason: '', error: '', busy: false });
    this.choices = choices;
  }

  /** Nothing to read: the dialog starts with the first other agent chosen. */
  open(): void {}

  setProfile(profile: string): void {
    this.set({ profile, error: '' });
  }

  setReason(reason: string): void {
    this.set({ reason });
  }

  /** Hands the session over; the status line's words when done, null when refused. */
  async handOff(): Promise<string | null> {
    const profile = handoffChoices(this.session.profile).find((p) => p === this.state.profile);
    if (profile === undefined) {
      this.set({ error: 'Choose the agent to continue with.' });
      return null;
    }
    const reason = this.state.reason.trim();
    this.set({ busy: true, error: '' });
    const r = await this.api.call('session.handoff', { session: this.session.id, profile, ...(reason ? { reason } : {}) });
    this.set({ busy: false });
    if (!r.ok) {
      this.set({ error: r.message });
      return null;
    }
    return handedOffText(this.session.name, this.session.profile, profile);
  }
}
