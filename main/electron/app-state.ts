// The app's picture of the daemon: the sessions (from `list`, refreshed on every session event) with
// what the events add (attention reasons, verification results), and the daemon connection's state;
// and of each remote (DESIGN.md §12): its status and its sessions, keyed by host, named `host:session`
// with ids `host:id` so they never meet a local one. Tells its listeners after each change, with the
// events that caused it, so the tray rebuilds and the notifications decide from state on each change,
// never on a timer. Electron main process; imports no Electron.
import { LiveSession, type DaemonEvent } from '../../common/ipc.js';
import { z } from 'zod';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';
import { applyList, foldEvent } from '../../common/session-list-store.js';
import type { WatchedSession } from '../../common/session-view.js';
import type { RemoteHub } from '../remote/remote-hub.js';
import type { RemoteView } from '../remote/remote-link.js';
import type { KeeperStatus } from './daemon-keeper.js';

/**
 * `quiet`: sessions (by id) whose conditions were already so when they were first seen — a remote's
 * first listing — and are taken as told, as the local ones are when the app starts.
 */
export type StateListener = (events: DaemonEvent[], quiet: ReadonlySet<string>) => void;

/** A remote's session as the app names it: `host:work`, id `host:<id>`. */
export function remoteRow(host: string, row: WatchedSession): WatchedSession {
  return { ...row, info: { ...row.info, id: `${host}:${row.info.id}`, name: `${host}:${row.info.name}` } };
}

/** A remote's event with its session's id as the app names it. */
function remoteEvent(host: string, e: DaemonEvent): DaemonEvent {
  return 'sessionId' in e ? { ...e, sessionId: `${host}:${e.sessionId}` } : e;
}

const SessionList = z.array(LiveSession);

export class AppState {
  readonly rows = new Map<string, WatchedSession>();
  /** Each remote by host name, its sessions named `host:session`. */
  readonly remotes = new Map<string, RemoteView>();
  daemon: KeeperStatus = { state: 'connecting', detail: '' };
  /** Whether the session list has been read at least once (before that, `rows` is not the daemon's picture). */
  listed = false;
  private readonly listeners = new Set<StateListener>();
  private pendingEvents: DaemonEvent[] = [];
  private pendingQuiet = new Set<string>();
  private refreshing: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly connection: Pick<DaemonConnection, 'request' | 'onEvent'>,
    remotes?: Pick<RemoteHub, 'onChange' | 'views'>,
  ) {
    connection.onEvent((e) => {
      foldEvent(this.rows, e);
      this.pendingEvents.push(e);
      if ('sessionId' in e || e.type === 'supervisor.ready') this.refresh();
      else this.emit();
    });
    remotes?.onChange((host, change) => {
      this.remotes.clear();
      for (const v of remotes.views()) this.remotes.set(v.name, { ...v, sessions: v.sessions.map((r) => remoteRow(v.name, r)) });
      this.pendingEvents.push(...change.events.map((e) => remoteEvent(host, e)));
      if (change.firstListing) for (const r of this.remotes.get(host)?.sessions ?? []) this.pendingQuiet.add(r.info.id);
      this.emit();
    });
  }

  /** The local sessions. */
  sessions(): WatchedSession[] {
    return [...this.rows.values()];
  }

  /** Every remote's sessions as last listed (an unreachable one's too: coming back is no news), named `host:session`. */
  remoteSessions(): WatchedSession[] {
    return [...this.remotes.values()].flatMap((v) => v.sessions);
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
    const quiet = this.pendingQuiet;
    this.pendingEvents = [];
    this.pendingQuiet = new Set();
    for (const l of [...this.listeners]) l(events, quiet);
  }
}
