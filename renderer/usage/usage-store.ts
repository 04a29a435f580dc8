// A session's usage as the window shows it (DESIGN.md §5 "Usage", §13): `usage.read` on open, again
// when the daemon says the agent finished a turn, stopped or was resumed (each a point where its
// record holds a new request) or the settings changed (the share set may be another), and on a slow interval while the window is visible for agents that
// report no activity. A reading that crosses the share the person set gives one notice. Runs in the
// renderer.
import type { DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { usageMayHaveChanged } from '../../common/usage-figures.js';
import type { SessionUsage } from '../../common/usage.js';
import { PaneStore } from '../ui/pane-store.js';
import { crossingNotice } from './usage-model.js';

/**
 * The interval's period. A turn's end is told by an activity event; an agent whose screen Mori reads
 * no activity from (a plain program, an unknown CLI) is read this often instead: a minute is fresh
 * enough for a figure that moves per request, and each read costs the daemon only what was appended.
 */
export const USAGE_POLL_MS = 60_000;

export interface UsageState {
  usage: SessionUsage | null;
  /** Why the figures could not be read, or ''. */
  status: string;
  /** The last crossing of the share set, said once (a live region announces it). */
  notice: string;
}

/** The events after which this session's figures may have changed. */
const worked = (e: DaemonEvent, sessionId: string): boolean => usageMayHaveChanged(e) && (e.type === 'settings.changed' || ('sessionId' in e && e.sessionId === sessionId));

/** The window's clock and visibility (a test gives its own). */
const browserTimers = {
  every: (ms: number, f: () => void): (() => void) => {
    const t = setInterval(f, ms);
    return () => clearInterval(t);
  },
  visible: (): boolean => typeof document === 'undefined' || document.visibilityState === 'visible',
};

export class UsageStore extends PaneStore<UsageState> {
  constructor(
    private readonly api: MoriApi,
    private readonly sessionId: string,
    private readonly onEvent: (l: (e: DaemonEvent) => void) => () => void,
    private readonly timers: { every: (ms: number, f: () => void) => () => void; visible: () => boolean } = browserTimers,
  ) {
    super({ usage: null, status: '', notice: '' });
  }

  open(): void {
    void this.read();
    this.whileOpen(this.onEvent((e) => void (worked(e, this.sessionId) && this.read())));
    this.whileOpen(this.timers.every(USAGE_POLL_MS, () => void (this.timers.visible() && this.read())));
  }

  async read(): Promise<void> {
    const current = this.newRead();
    const r = await this.api.call('usage.read', { sessions: [this.sessionId] });
    if (!current()) return;
    if (!r.ok) return this.set({ status: `Usage not read: ${r.message}` });
    const usage = r.value[0] ?? null;
    const notice = usage === null ? null : crossingNotice(this.state.usage, usage);
    this.set({ usage, status: '', ...(notice === null ? {} : { notice }) });
  }
}
