// The store of the window's "While you were away" (DESIGN.md §9, §13): `report.read` once as the
// window opens, then shown, its mark started or left as away-model.ts's `onOpen` says; read again
// when the person asks for it (the palette); "Got it" reads it with `looked: true`, which moves the
// window's last-looked mark in the daemon, and hides it. Lives as long as the window. Runs in the renderer.
import type { AwayReport } from '../../common/away-report.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { onOpen } from './away-model.js';

export interface AwayState {
  report: AwayReport | null;
  /** The report is on screen. */
  shown: boolean;
  /** Why the report could not be read or its mark not moved, or ''. */
  status: string;
}

export class AwayStore extends PaneStore<AwayState> {
  constructor(private readonly api: Pick<MoriApi, 'call'>) {
    super({ report: null, shown: false, status: '' });
  }

  open(): void {
    void this.opening();
  }

  private async opening(): Promise<void> {
    const current = this.newRead();
    const r = await this.api.call('report.read', { looked: false });
    if (!current() || !r.ok) return;
    const next = onOpen(r.value);
    if (next === 'show') this.set({ report: r.value, shown: true, status: '' });
    else if (next === 'mark') await this.api.call('report.read', { looked: true });
  }

  /** Shows the report since the last look, read now (the palette's "While you were away"). */
  show = async (): Promise<void> => {
    const current = this.newRead();
    this.set({ shown: true, status: 'Reading…' });
    const r = await this.api.call('report.read', { looked: false });
    if (!current()) return;
    this.set(r.ok ? { report: r.value, status: '' } : { status: `The report could not be read: ${r.message}` });
  };

  /** "Got it": the mark moves to now, so the next report starts here. */
  dismiss = async (): Promise<void> => {
    const current = this.newRead();
    const r = await this.api.call('report.read', { looked: true });
    if (!current()) return;
    if (!r.ok) return this.set({ status: `Your look could not be recorded: ${r.message}` });
    this.set({ shown: false, status: '' });
  };

  /** Closed without "Got it" (Escape, a session's Changes): the mark stays, the report comes back next time. */
  hide = (): void => {
    this.newRead();
    this.set({ shown: false, status: '' });
  };
}
