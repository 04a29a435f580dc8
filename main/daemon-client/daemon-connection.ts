// A long-lived client of the daemon (DESIGN.md §12) for processes that outlive it or start before it:
// the Electron main process, a script watching events. It notices the daemon going away (the socket
// closes), reconnects when it answers again (the one backoff of common/protocol-client.ts), says
// hello, and re-subscribes to events after the last one it handed on (common/event-cursor.ts), so a
// reconnect neither loses nor repeats one; when the daemon cannot give them (it was restarted, or the
// gap is older than its log) its resync listeners read the whole state again. Requests made while it
// is down fail at once, as values.
// Runs in any Node client process.
import { background } from '../background.js';
import { EventCursor } from '../../common/event-cursor.js';
import type { DaemonEvent, EventResync, IpcMethod, IpcParams, IpcResult } from '../../common/ipc.js';
import { LOCAL_RECONNECT_MAX_MS, Reconnect } from '../../common/protocol-client.js';
import { fail, type Result } from '../../common/result.js';
import { ControlClient, type DaemonHello } from './control-client.js';

export type DaemonConnectionState = 'connecting' | 'open' | 'closed';

export interface DaemonConnectionOptions {
  client?: string;
  reconnectMs?: number;
}

export class DaemonConnection {
  private current: ControlClient | null = null;
  private readonly eventListeners = new Set<(e: DaemonEvent) => void>();
  private readonly stateListeners = new Set<(state: DaemonConnectionState, detail: string) => void>();
  private readonly resyncListeners = new Set<(why: EventResync) => void>();
  /** The last event handed on, across connections and daemon runs. */
  readonly cursor = new EventCursor();
  private readonly reconnect: Reconnect;
  private stopped = false;
  state: DaemonConnectionState = 'closed';
  daemon: DaemonHello | null = null;

  constructor(private readonly home: string, private readonly options: DaemonConnectionOptions = {}) {
    // Its daemon is on this machine: tried again every second at most while it is away.
    this.reconnect = new Reconnect(() => this.connectReporting(), options.reconnectMs, LOCAL_RECONNECT_MAX_MS);
  }

  /** Connects now and keeps reconnecting until close(). */
  start(): void {
    this.connectReporting();
  }

  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    if (!this.current || this.state !== 'open') return Promise.resolve(fail('disconnected', 'not connected to the Mori daemon'));
    return this.current.request(method, params);
  }

  /** Every daemon event; subscribed on every (re)connection while a listener exists. */
  onEvent(listener: (e: DaemonEvent) => void): () => void {
    this.eventListeners.add(listener);
    if (this.eventListeners.size === 1 && this.current && this.state === 'open') background(this.subscribe(this.current), 'subscribing to the daemon\'s events');
    return () => this.eventListeners.delete(listener);
  }

  /** Events were missed that the daemon could not give again: read the whole state afresh. */
  onResync(listener: (why: EventResync) => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  onState(listener: (state: DaemonConnectionState, detail: string) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  close(): void {
    this.stopped = true;
    this.reconnect.stop();
    this.current?.close();
    this.current = null;
  }

  private setState(state: DaemonConnectionState, detail: string): void {
    this.state = state;
    for (const l of [...this.stateListeners]) l(state, detail);
  }

  /** A connection attempt that cannot end in an unhandled rejection: a failure is a state, then a retry. */
  private connectReporting(): void {
    this.connect().catch((err: unknown) => {
      this.setState('closed', `connecting failed: ${(err as Error).message ?? String(err)}`);
      this.retry();
    });
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.setState('connecting', '');
    const r = await ControlClient.connect(this.home, { client: this.options.client ?? `daemon connection (pid ${process.pid})` });
    if (this.stopped) {
      if (r.ok) r.value.close();
      return;
    }
    if (!r.ok) {
      this.setState('closed', r.message);
      return this.retry();
    }
    const c = r.value;
    this.current = c;
    this.daemon = c.daemon;
    this.reconnect.reset();
    c.onStream((m) => {
      if (m.kind === 'event' && this.cursor.accept(m.seq)) for (const l of [...this.eventListeners]) l(m.event);
    });
    c.onClose(() => {
      if (this.current !== c) return;
      this.current = null;
      this.setState('closed', 'the Mori daemon went away');
      this.retry();
    });
    if (this.eventListeners.size > 0) await this.subscribe(c);
    this.setState('open', '');
  }

  /** Subscribes after the last event handed on; the events missed arrive before the reply. */
  private async subscribe(c: ControlClient): Promise<void> {
    const asked = this.cursor.subscribeParams();
    const r = await c.request('subscribe', asked);
    if (!r.ok) return;
    const outcome = this.cursor.subscribed(r.value, asked);
    if (outcome.kind === 'resync') for (const l of [...this.resyncListeners]) l(outcome.why);
  }

  private retry(): void {
    if (!this.stopped) this.reconnect.schedule();
  }
}
