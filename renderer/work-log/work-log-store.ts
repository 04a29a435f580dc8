// The work log pane's state and actions (DESIGN.md §3, §13): the newest page read on open and again
// on each `log.appended` of the session, earlier pages on request, a new entry added from the box.
// Runs in the renderer.
import type { DaemonEvent, LogEntry } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { withNewest, withOlder } from './work-log-model.js';

/** Entries per page: a few screens; older ones page in on request. */
const PAGE = 50;

export interface WorkLogState {
  entries: LogEntry[];
  /** Whether there are entries older than the first shown. */
  more: boolean;
  /** The text in the new entry's box. */
  draft: string;
  status: string;
}

export class WorkLogStore extends PaneStore<WorkLogState> {
  /** True once older pages were read: from then on only they say whether there are more. */
  private pagedBack = false;

  constructor(
    private readonly api: MoriApi,
    private readonly sessionId: string,
    private readonly onEvent: (l: (e: DaemonEvent) => void) => () => void,
  ) {
    super({ entries: [], more: false, draft: '', status: '' });
  }

  open(): void {
    void this.loadNewest();
    this.whileOpen(
      this.onEvent((e) => {
        if (e.type === 'log.appended' && e.sessionId === this.sessionId) void this.loadNewest();
      }),
    );
  }

  setDraft(draft: string): void {
    this.set({ draft });
  }

  async loadNewest(): Promise<void> {
    const r = await this.api.call('log.tail', { session: this.sessionId, limit: PAGE });
    if (!r.ok) return this.set({ status: `Cannot read the work log: ${r.message}` });
    this.set({ entries: withNewest(this.state.entries, r.value.entries), more: this.pagedBack ? this.state.more : r.value.more });
  }

  async older(): Promise<void> {
    const before = this.state.entries[0]?.index;
    if (before === undefined) return;
    const r = await this.api.call('log.tail', { session: this.sessionId, before, limit: PAGE });
    if (!r.ok) return this.set({ status: r.message });
    this.pagedBack = true;
    this.set({ entries: withOlder(this.state.entries, r.value.entries, before), more: r.value.more });
  }

  async add(): Promise<void> {
    const text = this.state.draft.trim();
    if (!text) return;
    const r = await this.api.call('log.append', { session: this.sessionId, text });
    if (!r.ok) return this.set({ status: `Not added: ${r.message}` });
    this.set({ draft: '', status: '' });
    await this.loadNewest();
  }
}
