// One remote's standing connection for the app (DESIGN.md §12, sessions on other hosts): ssh to its
// `mori bridge`, hello, `subscribe` after the last event handed on (common/event-cursor.ts), `list`,
// then the session rows kept current from its events; when ssh drops it says why and logs in again
// with a capped backoff, resuming the events where it left off (a resync re-lists). It never blocks
// its caller: every step runs in the background and shows as the remote's status. Runs in the
// Electron main process (plain Node).
import * as z from 'zod/mini';
import '../../common/zod-english.js';
import { background } from '../background.js';
import { EventCursor } from '../../common/event-cursor.js';
import { PROTOCOL_VERSION, LiveSession, type DaemonEvent, type IpcMethod, type IpcParams, type IpcResult } from '../../common/ipc.js';
import { fail, type Result } from '../../common/result.js';
import { applyList, foldEvent } from '../../common/session-list-store.js';
import type { WatchedSession } from '../../common/session-view.js';
import { RemoteClient, otherVersionMessage } from './remote-client.js';
import type { Remote } from './remotes-store.js';

/** `connecting`: no answer yet since the app started (or the remote was added); the others as in `mori ls`. */
export type RemoteStatus = 'connecting' | 'ok' | 'unreachable' | 'other-version';

export interface RemoteView {
  name: string;
  destination: string;
  status: RemoteStatus;
  /** Why it is not `ok`: ssh's reason, or what to run there. */
  message: string | null;
  /** Its sessions as last listed (kept while it is unreachable, so coming back is no news). */
  sessions: WatchedSession[];
}

/** What changed: the events that came (ids as the remote's), and whether this was the remote's first listing. */
export interface RemoteChange {
  events: DaemonEvent[];
  firstListing: boolean;
}

export interface RemoteLinkOptions {
  /** The Mori home whose ssh connections are shared. */
  home: string;
  /** One login's deadline; a hung one costs this, then counts as unreachable. */
  connectTimeoutMs?: number;
  reconnectFirstMs?: number;
  reconnectMaxMs?: number;
  log?: (line: string) => void;
}

/**
 * The first wait before logging in again. Each try is an ssh login (a handshake, a line in the
 * remote's auth log), so the waits grow instead of hammering a host that is down.
 */
export const REMOTE_RECONNECT_FIRST_MS = 2_000;
/**
 * The longest wait between logins: a host back after a network change shows again within a minute,
 * while one that is down for hours costs one login a minute.
 */
export const REMOTE_RECONNECT_MAX_MS = 60_000;
/**
 * The app's login deadline: shorter than `mori attach`'s 45 s (a person is not waiting on it, and a
 * slow remote is simply tried again), long enough for a bridge that must start the remote's daemon.
 */
export const REMOTE_LINK_CONNECT_MS = 30_000;

const SessionList = z.array(LiveSession);

export class RemoteLink {
  readonly rows = new Map<string, WatchedSession>();
  status: RemoteStatus = 'connecting';
  message: string | null = null;
  private readonly cursor = new EventCursor();
  private client: RemoteClient | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delay: number;
  private stopped = false;
  private everListed = false;
  private pending: DaemonEvent[] = [];
  private listing: Promise<void> | null = null;
  private listAgain = false;

  constructor(
    readonly remote: Remote,
    private readonly o: RemoteLinkOptions,
    private readonly onChange: (change: RemoteChange) => void,
  ) {
    this.delay = o.reconnectFirstMs ?? REMOTE_RECONNECT_FIRST_MS;
  }

  view(): RemoteView {
    return { name: this.remote.name, destination: this.remote.destination, status: this.status, message: this.message, sessions: [...this.rows.values()] };
  }

  start(): void {
    this.attempt();
  }

  /**
   * A request to this remote's daemon over the standing connection (a tray action on one of its
   * sessions): refused at once while it is not connected, never waiting for a login. The list is read
   * again after it, so the row shows what the action did.
   */
  async request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    const client = this.client;
    if (!client || this.status !== 'ok') return fail('failed', `${this.remote.name} is not connected${this.message ? ` (${this.message})` : ''}`);
    const r = await client.request(method, params);
    if (this.client === client) background(this.relist(client), `listing ${this.remote.name}'s sessions`);
    return r;
  }

  /** Ends the connection and every retry. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.client?.close();
    this.client = null;
  }

  private attempt(): void {
    this.connect().catch((err: unknown) => this.lost(`${this.remote.name}: ${(err as Error).message ?? String(err)}`));
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const c = await RemoteClient.connect(this.remote, { home: this.o.home, timeoutMs: this.o.connectTimeoutMs ?? REMOTE_LINK_CONNECT_MS, allowOtherVersion: true });
    if (this.stopped) {
      if (c.ok) c.value.close();
      return;
    }
    if (!c.ok) return this.lost(c.message);
    const client = c.value;
    if (client.daemon.protocol !== PROTOCOL_VERSION) {
      client.close();
      // It answers, in another version: what to run there stays shown; tried again in case it was updated.
      this.set('other-version', otherVersionMessage(this.remote, client.daemon));
      return this.retry();
    }
    this.client = client;
    client.onStream((m) => {
      if (this.client !== client || m.kind !== 'event' || !this.cursor.accept(m.seq)) return;
      foldEvent(this.rows, m.event);
      this.pending.push(m.event);
      if ('sessionId' in m.event || m.event.type === 'supervisor.ready') background(this.relist(client), `listing ${this.remote.name}'s sessions`);
      else this.emit(false);
    });
    client.onClose((why) => {
      if (this.client !== client) return;
      this.client = null;
      this.lost(why);
    });
    const asked = this.cursor.subscribeParams();
    const sub = await client.request('subscribe', asked);
    if (this.client !== client) return;
    if (!sub.ok) {
      client.close();
      return this.lost(`${this.remote.name}: ${sub.message}`);
    }
    // Resumed or resynced, the list is read again: it carries what events do not (state, activity),
    // and a condition seen before is no news to the notifications, which remember it.
    this.cursor.subscribed(sub.value, asked);
    this.delay = this.o.reconnectFirstMs ?? REMOTE_RECONNECT_FIRST_MS;
    await this.relist(client);
  }

  /** Re-reads the session list; calls made meanwhile coalesce into one more read. */
  private relist(client: RemoteClient): Promise<void> {
    if (this.listing) {
      this.listAgain = true;
      return this.listing;
    }
    this.listing = this.readList(client)
      .catch((err: unknown) => this.o.log?.(`${this.remote.name}: listing failed: ${String(err)}`))
      .finally(() => {
        this.listing = null;
        if (this.listAgain && this.client === client) {
          this.listAgain = false;
          background(this.relist(client), `listing ${this.remote.name}'s sessions`);
        }
      });
    return this.listing;
  }

  private async readList(client: RemoteClient): Promise<void> {
    const r = await client.request('list', {});
    if (this.client !== client) return;
    if (!r.ok) return;
    const parsed = SessionList.safeParse(r.value);
    if (!parsed.success) {
      // Another host's daemon is input like any other: a bad answer is named and not shown.
      this.o.log?.(`${this.remote.name}: its session list does not parse (${parsed.error.issues[0]?.message ?? 'invalid'}); not shown`);
      return;
    }
    applyList(this.rows, parsed.data);
    const first = !this.everListed;
    this.everListed = true;
    this.status = 'ok';
    this.message = null;
    this.emit(first);
  }

  private lost(why: string): void {
    if (this.stopped) return;
    // ssh's reason stays shown, and the rows as last listed (hidden by the tray), until it answers again.
    this.set('unreachable', why);
    this.retry();
  }

  private set(status: RemoteStatus, message: string | null): void {
    const same = this.status === status && this.message === message;
    this.status = status;
    this.message = message;
    if (!same) this.emit(false);
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.attempt();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, this.o.reconnectMaxMs ?? REMOTE_RECONNECT_MAX_MS);
  }

  private emit(firstListing: boolean): void {
    const events = this.pending;
    this.pending = [];
    this.onChange({ events, firstListing });
  }
}
