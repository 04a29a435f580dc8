// The renderer's one API (DESIGN.md §2, §12): every control method of common/ipc.ts, the daemon's
// event stream, connection state, and terminals (attach: snapshot, then live output; input, resize,
// detach). One interface, two transports: Electron's preload provides it over IPC, and
// `createWebSocketApi` below over the web host's WebSocket (`mori ui`). The WebSocket client sends its
// session secret as its first message (common/web-session.ts), then speaks through the protocol core
// (protocol-client.ts: hello, replies matched and validated), acknowledges terminal output, and
// reconnects (re-subscribing after the last event it handed on, event-cursor.ts, with the core's
// backoff) when the daemon or the web host comes back: no event is lost or repeated across it.
// Pure TypeScript: no Node and no DOM imports; the WebSocket is passed in.
import type { DaemonEvent, IpcMethod, IpcParams, IpcResult, LiveSession } from './ipc.js';
import { EventCursor } from './event-cursor.js';
import { ProtocolClient, Reconnect, type StreamMessage } from './protocol-client.js';
import { fail, ok, type Result } from './result.js';
import { WS_UNAUTHORIZED, type WebAuthMessage } from './web-session.js';

/**
 * Starts a connection step nobody awaits. Those steps resolve to Results (a failure is a value, and
 * a dropped connection reconnects and re-subscribes by itself); a rejection would be a bug in this
 * file, so it is not left unhandled to take the page down.
 */
function settle(step: Promise<unknown>): void {
  step.then(undefined, (err: unknown) => console.error('mori: a connection step failed', err));
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface TerminalView {
  /** The screen as it is now (sent first on every attach), to paint after a reset. */
  snapshot(data: string, size: { cols: number; rows: number }): void;
  output(data: string): void;
  /**
   * True: the view acknowledges output itself (`AttachedTerminal.ack`) once it has taken it in (a
   * terminal that has parsed it), so a page that falls behind slows the agent down instead of
   * queueing without bound. Otherwise each frame is acknowledged as it arrives.
   */
  readonly acksOutput?: boolean;
  /**
   * False: the view starts hidden and does not hold its agent back (AttachedTerminal.hold); when
   * left out it holds, as every view did before views could say.
   */
  readonly holding?: boolean;
  /** The attachment ended: the agent exited, the session stopped, the connection was lost. */
  ended(reason: string): void;
}

export interface AttachedTerminal {
  readonly info: LiveSession;
  input(data: string): void;
  resize(cols: number, rows: number): void;
  /** Output taken in, in chars, for a view that `acksOutput`. */
  ack(chars: number): void;
  /**
   * Shown (true) or hidden (false): only a view the person sees holds its agent back. A hidden one is
   * never waited for; when it falls far behind the daemon stops sending it output and sends a fresh
   * snapshot when it holds again. The attachment stays, so typing goes through at once.
   */
  hold(holding: boolean): void;
  detach(): void;
}

/** A remote host as the window shows it: its name, its connection, and why it is not open (ssh's words). */
export interface HostStatus {
  name: string;
  state: ConnectionState;
  detail: string;
}

export interface MoriApi {
  call<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>>;
  /** Every daemon event; subscribes on the first listener and again after each reconnect. */
  onEvent(listener: (e: DaemonEvent) => void): () => void;
  /**
   * The connection's state: told at once, then on each change (as the app's preload does). A listener
   * that comes after the connection opened (the window's store subscribes after its first render)
   * must still learn that it is open.
   */
  onConnection(listener: (state: ConnectionState, detail: string) => void): () => void;
  /** Attaches a terminal on a connection of its own (the protocol allows one attachment per connection). */
  attach(session: string, size: { cols: number; rows: number }, view: TerminalView): Promise<Result<AttachedTerminal>>;
  /** The other hosts this API reaches and how each is connected (common/hosts-api.ts); told at once, then on each change. Absent: this host only. */
  onHosts?(listener: (hosts: readonly HostStatus[]) => void): () => void;
  /** In the app: opens a link in the default browser through the main process (http and https only). A browser page opens links itself. */
  openLink?(url: string): Promise<Result<unknown>>;
  /** In the app: opens a session's state folder in the file manager (the folder the daemon knows for it). A browser page cannot. */
  openStateDir?(session: string): Promise<Result<unknown>>;
  close(): void;
}

/** What the transport needs of a WebSocket: the browser's, or an adapter over another library's. */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((data: string) => void) | null;
  onclose: ((code: number, reason: string) => void) | null;
}

export interface WebSocketApiOptions {
  url: string;
  open: (url: string) => WebSocketLike;
  /** First reconnect delay; doubles up to `reconnectMaxMs`. */
  reconnectMs?: number;
  /** Longest wait between reconnect attempts (protocol-client.ts's RECONNECT_MAX_MS by default). */
  reconnectMaxMs?: number;
  client?: string;
  /** A request's time limit (protocol-client.ts's REQUEST_TIMEOUT_MS by default). */
  requestTimeoutMs?: number;
  /**
   * The session secret each WebSocket sends first (the web host reads nothing before it); null:
   * none is held, and the host will refuse the socket with WS_UNAUTHORIZED, which ends reconnecting.
   */
  secret?: () => Promise<string | null>;
}

/** One WebSocket speaking the control API through the protocol core: the secret, hello, then requests. */
class Channel {
  private ws: WebSocketLike | null = null;
  private client: ProtocolClient | null = null;
  private openWaiters: ((r: Result<void>) => void)[] = [];
  state: ConnectionState = 'closed';
  /** How the last WebSocket closed: WS_UNAUTHORIZED ends reconnecting. */
  lastCloseCode = 0;
  /** Why, as the close listeners were told. */
  lastCloseReason = '';

  constructor(
    private readonly options: WebSocketApiOptions,
    private readonly onStream: (m: StreamMessage) => void,
    private readonly onState: (state: ConnectionState, detail: string) => void,
  ) {}

  /** Opens the socket and says hello; resolves once the daemon answered (or why not). */
  open(): Promise<Result<void>> {
    if (this.state === 'open') return Promise.resolve(ok(undefined));
    const done = new Promise<Result<void>>((resolve) => this.openWaiters.push(resolve));
    if (this.state === 'connecting') return done;
    this.state = 'connecting';
    this.onState('connecting', '');
    const ws = this.options.open(this.options.url);
    this.ws = ws;
    let toClient: (frame: string) => void = () => undefined;
    let closeClient: (why: string) => void = () => undefined;
    const client = new ProtocolClient(
      { send: (frame) => ws.send(frame), onFrame: (l) => (toClient = l), onClose: (l) => (closeClient = l) },
      this.options.requestTimeoutMs !== undefined ? { timeoutMs: this.options.requestTimeoutMs } : {},
    );
    client.onStream(this.onStream);
    this.client = client;
    ws.onopen = () => settle(this.authenticate(ws, client));
    ws.onmessage = (data) => toClient(data);
    ws.onclose = (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.client = null;
      this.state = 'closed';
      this.lastCloseCode = code;
      const why = reason || `connection closed (${code})`;
      this.lastCloseReason = why;
      closeClient(why);
      this.settleOpen(fail('disconnected', why), false);
      this.onState('closed', why);
    };
    return done;
  }

  /** The secret first (when the transport has one), then hello. */
  private async authenticate(ws: WebSocketLike, client: ProtocolClient): Promise<void> {
    if (this.options.secret) {
      const secret = await this.options.secret();
      if (this.ws !== ws) return;
      if (secret !== null) ws.send(JSON.stringify({ kind: 'auth', secret } satisfies WebAuthMessage));
    }
    const r = await client.hello({ client: this.options.client ?? 'mori web client', daemonName: 'the Mori daemon', selfName: 'this page' });
    if (!r.ok) return this.settleOpen(r, true);
    this.state = 'open';
    this.onState('open', '');
    this.settleOpen(ok(undefined), false);
  }

  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    if (!this.client || this.state !== 'open') return Promise.resolve(fail('disconnected', 'not connected to the Mori daemon'));
    return this.client.request(method, params);
  }

  close(): void {
    const ws = this.ws;
    ws?.close(1000, 'closed by the page');
    ws?.onclose?.(1000, 'closed by the page');
  }

  private settleOpen(r: Result<void>, closeSocket: boolean): void {
    for (const w of this.openWaiters.splice(0)) w(r);
    if (closeSocket) this.close();
  }
}

export function createWebSocketApi(options: WebSocketApiOptions): MoriApi {
  const eventListeners = new Set<(e: DaemonEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState, detail: string) => void>();
  const attachments = new Set<Channel>();
  let closed = false;
  const reconnect = new Reconnect(() => settle(main.open()), options.reconnectMs, options.reconnectMaxMs);
  const cursor = new EventCursor();
  // After the last event handed on: the missed ones arrive before the reply. A page reads the whole
  // state again on every reconnect (its connection listeners), which also covers a resync.
  const subscribe = async (): Promise<void> => {
    const asked = cursor.subscribeParams();
    const r = await main.request('subscribe', asked);
    if (r.ok) cursor.subscribed(r.value, asked);
  };

  const main: Channel = new Channel(
    options,
    (m) => {
      if (m.kind === 'event' && cursor.accept(m.seq)) for (const l of [...eventListeners]) l(m.event);
    },
    (state, detail) => {
      for (const l of [...stateListeners]) l(state, detail);
      if (state === 'open') {
        reconnect.reset();
        if (eventListeners.size > 0) settle(subscribe());
      }
      // Refused for want of a valid secret: retrying would only be refused again.
      if (state === 'closed' && !closed && main.lastCloseCode !== WS_UNAUTHORIZED) reconnect.schedule();
    },
  );

  settle(main.open());

  return {
    async call(method, params) {
      if (main.state !== 'open') {
        const opened = await main.open();
        if (!opened.ok) return opened;
      }
      return main.request(method, params);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      if (eventListeners.size === 1 && main.state === 'open') settle(subscribe());
      return () => eventListeners.delete(listener);
    },
    onConnection(listener) {
      stateListeners.add(listener);
      listener(main.state, main.state === 'closed' ? main.lastCloseReason : '');
      return () => stateListeners.delete(listener);
    },
    async attach(session, size, view) {
      let ended = false;
      const end = (reason: string): void => {
        if (ended) return;
        ended = true;
        attachments.delete(channel);
        view.ended(reason);
      };
      const channel: Channel = new Channel(
        options,
        (m) => {
          if (m.kind === 'frame') {
            if (m.frame.kind === 'snapshot') view.snapshot(m.frame.data, m.frame.size);
            else {
              view.output(m.frame.data);
              if (!view.acksOutput) settle(channel.request('ack', { chars: m.frame.data.length }));
            }
          } else if (m.kind === 'detached' || m.kind === 'closing') {
            end(m.reason);
            channel.close();
          }
        },
        (state, detail) => {
          if (state === 'closed') end(detail || 'the connection closed');
        },
      );
      const opened = await channel.open();
      if (!opened.ok) return opened;
      attachments.add(channel);
      const r = await channel.request('attach', { session, cols: size.cols, rows: size.rows, ...(view.holding === false ? { holding: false } : {}) });
      if (!r.ok) {
        ended = true;
        attachments.delete(channel);
        channel.close();
        return r;
      }
      const info = r.value;
      return ok({
        info,
        input: (data: string) => void channel.request('input', { data }),
        resize: (cols: number, rows: number) => void channel.request('resize', { cols, rows }),
        ack: (chars: number) => {
          if (chars > 0 && !ended) settle(channel.request('ack', { chars }));
        },
        hold: (holding: boolean) => {
          if (!ended) settle(channel.request('hold', { holding }));
        },
        detach: () => {
          end('detached');
          channel.close();
        },
      });
    },
    close() {
      closed = true;
      reconnect.stop();
      for (const c of attachments) c.close();
      main.close();
    },
  };
}
