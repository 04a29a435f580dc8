// The settings' targets off the machine (DESIGN.md §13 "Notices off the machine"): listed masked
// through notify.list, added and removed through notify.add / notify.remove (approvals the daemon
// takes from the person's window), each change answered by a fresh listing. Runs in the renderer.
import type { NotifyTarget } from '../../common/daemon-settings.js';
import type { MoriApi } from '../../common/mori-api.js';
import type { TargetKind } from '../../common/notify-events.js';
import { isHttpUrl } from '../../common/notify-targets.js';
import { PaneStore } from '../ui/pane-store.js';

export interface NoticeTargetsState {
  targets: NotifyTarget[] | null;
  kind: TargetKind;
  url: string;
  error: string;
  /** What the last change did, for the live region ("Added ntfy target …"). */
  said: string;
}

export class NoticeTargetsStore extends PaneStore<NoticeTargetsState> {
  constructor(private readonly api: MoriApi) {
    super({ targets: null, kind: 'ntfy', url: '', error: '', said: '' });
  }

  open(): void {
    void this.reload();
  }

  setKind(kind: TargetKind): void {
    this.set({ kind });
  }

  setUrl(url: string): void {
    this.set({ url, error: '' });
  }

  async add(): Promise<void> {
    const url = this.state.url.trim();
    if (!isHttpUrl(url)) return this.set({ error: 'The target is not an http:// or https:// URL.' });
    const r = await this.api.call('notify.add', { kind: this.state.kind, url });
    if (!r.ok) return this.set({ error: r.message });
    this.set({ url: '', error: '', said: `Added ${r.value.kind} target ${r.value.url}` });
    await this.reload();
  }

  async remove(t: NotifyTarget): Promise<void> {
    const r = await this.api.call('notify.remove', { target: t.id });
    if (!r.ok) return this.set({ error: r.message });
    this.set({ error: '', said: `Removed ${r.value.kind} target ${r.value.url}` });
    await this.reload();
  }

  private async reload(): Promise<void> {
    const r = await this.api.call('notify.list', {});
    if (!r.ok) return this.set({ error: r.message });
    this.set({ targets: r.value });
  }
}
