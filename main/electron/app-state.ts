// The app's picture of the daemon: the sessions (from `list`, refreshed on every session event) with
// what the events add (attention reasons, verification results), and the daemon connection's state.
// Tells its listeners after each change, with the events that caused it, so the tray rebuilds and
// the notifications decide from state on each change, never on a timer. Electron main process;
// imports no Electron.
import { SessionInfo, type DaemonEvent } from '../../common/ipc.js';
import { z } from 'zod';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';
import { applyList, foldEvent } from '../../common/session-list-store.js';
import type { SessionRow } from '../../common/session-view.js';
import type { KeeperStatus } from './daemon-keeper.js';

export type StateListener = (events: DaemonEvent[]) => void;

const SessionList = z.array(SessionInfo);

export class AppState {
  readonly rows = new Map<string, SessionRow>();
  daemon: KeeperStatus = { state: 'connecting', detail: '' };
  /** Whether the session list has been read at least once (before that, `rows` is not the daemon's picture). */
  listed = false;
  private readonly listeners = new Set<StateListener>();
  private pendingEvents: DaemonEvent[] = [];
  private refreshing: Promise<void> | null = null;
  private again = false;

  constructor(private readonly connection: Pick<DaemonConnection, 'request' | 'onEvent'>) {
    connection.onEvent((e) => {
      foldEvent(this.rows, e);
      this.pendingEvents.push(e);
      if ('sessionId' in e || e.type === 'supervisor.ready') this.refresh();
      else this.emit();
    });
  }

  sessions(): SessionRow[] {
    return [...this.rows.values()];
  }

  setDaemon(status: KeeperStatus): void {
    this.daemon = status;
    if (status.state === 'open') this.refresh();
    else this.emit();
  }

  onChange(listener: StateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the session list; calls made meanwhile coalesce into one more read. */
  refresh(): void {
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = this.readList()
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = null;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }

  /** Resolves once no refresh is running (tests and quit wait on it). */
  async settled(): Promise<void> {
    while (this.refreshing) await this.refreshing;
  }

  private async readList(): Promise<void> {
    const r = await this.connection.request('list', {});
    if (r.ok) {
      const parsed = SessionList.safeParse(r.value);
      if (parsed.success) {
        this.listed = true;
        applyList(this.rows, parsed.data);
      }
    }
    this.emit();
  }

  private emit(): void {
    const events = this.pendingEvents;
    this.pendingEvents = [];
    for (const l of [...this.listeners]) l(events);
  }
}
