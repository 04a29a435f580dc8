// The Changes tab's state and actions (DESIGN.md §3, §4, §13): the checkpoints, the work log beside
// them, the files changed since the chosen point and the selected file's diff, read on open, on each
// `checkpoint.written` of the session (so a new checkpoint shows without asking) and on Refresh; and how
// a modified file's diff is laid out (unified or side by side, kept in this browser). A read's answer lands only while no newer read
// began (an event and Refresh in quick succession), a diff's only while its file is still the one
// selected. Runs in the renderer.
import type { ChangesListing, CheckpointInfo, FileDiff } from '../../common/checkpoints.js';
import type { DaemonEvent, LogEntry } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { stillSelected } from './checkpoint-timeline.js';
import { storedLayout, storeLayout, type DiffLayout } from './changes-prefs.js';

/** Work-log entries read for the timeline: the newest ones, as many as one page holds. */
const LOG_ENTRIES = 500;

export interface ChangesState {
  checkpoints: CheckpointInfo[];
  log: LogEntry[];
  /** What the changes are counted from: 'start' or a checkpoint's commit. */
  since: string;
  listing: ChangesListing | null;
  selected: string | null;
  diff: FileDiff | null;
  status: string;
  /** The Restore dialog's checkpoint and files (none: all), while it is open. */
  restoring: { to: CheckpointInfo; files: string[] } | null;
  layout: DiffLayout;
}

export class ChangesStore extends PaneStore<ChangesState> {
  constructor(
    readonly api: MoriApi,
    readonly sessionId: string,
    private readonly onEvent: (l: (e: DaemonEvent) => void) => () => void,
  ) {
    super({ checkpoints: [], log: [], since: 'start', listing: null, selected: null, diff: null, status: '', restoring: null, layout: storedLayout() });
  }

  open(): void {
    void this.load();
    this.whileOpen(
      this.onEvent((e) => {
        if (e.type === 'checkpoint.written' && e.sessionId === this.sessionId) void this.load();
      }),
    );
  }

  /** Reads the checkpoints, the log and the changes since `from`, then the selected file's diff. */
  async load(from = this.state.since): Promise<void> {
    const fresh = this.newRead();
    const session = this.sessionId;
    this.set({ status: 'Reading…' });
    const [cps, changes, entries] = await Promise.all([
      this.api.call('checkpoints.list', { session }),
      this.api.call('changes.list', { session, since: from }),
      this.api.call('log.tail', { session, limit: LOG_ENTRIES }),
    ]);
    if (!fresh()) return;
    if (cps.ok) this.set({ checkpoints: cps.value.checkpoints });
    if (entries.ok) this.set({ log: entries.value.entries });
    if (!changes.ok) return this.set({ listing: null, status: `Cannot list the changes: ${changes.message}` });
    const selected = stillSelected(changes.value.files, this.state.selected);
    this.set({ listing: changes.value, status: cps.ok ? '' : `Cannot list the checkpoints: ${cps.message}`, selected });
    await this.loadDiff(selected, from);
  }

  choose(path: string): void {
    this.set({ selected: path });
    void this.loadDiff(path);
  }

  changeSince(since: string): void {
    this.set({ since });
    void this.load(since);
  }

  setLayout(layout: DiffLayout): void {
    storeLayout(layout);
    this.set({ layout });
  }

  restore(to: CheckpointInfo, files: string[]): void {
    this.set({ restoring: { to, files } });
  }

  closeRestore(): void {
    this.set({ restoring: null });
  }

  /** After a restore: the dialog closes, the tab reads again, then says what was restored. */
  async restored(words: string): Promise<void> {
    this.set({ restoring: null });
    await this.load();
    this.set({ status: words });
  }

  private async loadDiff(path: string | null, from = this.state.since): Promise<void> {
    const fresh = this.sameRead();
    if (path === null) return this.set({ diff: null });
    const r = await this.api.call('changes.diff', { session: this.sessionId, since: from, paths: [path] });
    if (!fresh() || path !== this.state.selected) return;
    if (!r.ok) return this.set({ status: `Cannot show ${path}: ${r.message}` });
    this.set({ diff: r.value.files[0] ?? null });
  }
}
