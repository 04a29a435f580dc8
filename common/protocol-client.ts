// The one client core of the control API (DESIGN.md §12), whatever carries it: the unix socket
// (main/daemon-client/control-client.ts), the web host's WebSocket (mori-api.ts). It matches each
// reply to its request by id, validates every message it receives and every result against the
// method's result schema (common/ipc.ts), says `hello` with the protocol version (a daemon of another
// version is named, with what to do), and hands stream messages (events, frames, detach, closing) to
// a listener. A request not answered within its time (REQUEST_TIMEOUT_MS; the methods that run long
// work wait as long as the connection lives) is answered with a `timeout` failure naming the method
// and the wait, and a late reply to it is dropped. `Reconnect` holds the one backoff every
// reconnecting client uses. Pure TypeScript: the transport is passed in.
import { IpcMethods, IpcServerMessage, PROTOCOL_VERSION, REPLACE_DAEMON_HINT, type IpcMethod, type IpcParams, type IpcResult } from './ipc.js';
import { helloParams, requestFrame } from './protocol-frames.js';
import { fail, ok, type Result } from './result.js';
import { safeParse, type z } from 'zod/mini';

export type StreamMessage = Exclude<IpcServerMessage, { kind: 'reply' }>;

/** What the core needs of a connection: whole messages (one JSON text each) out and in, and its end. */
export interface Transport {
  send(frame: string): void;
  /** One listener: the core's. */
  onFrame(listener: (frame: string) => void): void;
  /** One listener: the core's; `why` is what the requests still waiting are answered. */
  onClose(listener: (why: string) => void): void;
}

/** What the daemon said in its `hello`. */
export interface DaemonHello {
  protocol: number;
  pid: number;
  home: string;
  startedAt: number;
  /** The daemon run and its last event's number (common/event-cursor.ts); null from a daemon older than its event log. */
  epoch: string | null;
  seq: number | null;
}

export interface HelloOptions {
  /** Who connects, for the daemon's log. */
  client: string;
  /** Keep a connection to a daemon of another protocol version (`mori down` stops it). */
  allowOtherVersion?: boolean;
  /** The daemon as the person knows it, for the message when it does not answer: "the Mori supervisor on <socket>". */
  daemonName: string;
  /** This client as the person knows it, for the message on another version: "this mori", "this page". */
  selfName: string;
}

/**
 * How long a request waits for its reply. The daemon answers a read or a write in milliseconds; one
 * that has not answered in half a minute is stuck (or its machine is), and the person should hear so
 * rather than watch a control that never finishes.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Methods whose answer comes when long work is done (the checks run, each up to its own timeout of
 * up to an hour; a snapshot of a large project; a rollback; a prompt delivered once the agent can
 * take it; the daemon stopping its sessions): no time limit but the connection's.
 */
export const LONG_METHODS: readonly IpcMethod[] = ['checks.verify', 'checkpoint.take', 'rollback', 'send', 'daemon.stop'];

export interface ProtocolClientOptions {
  /** The time limit of a request (REQUEST_TIMEOUT_MS by default); LONG_METHODS have none. */
  timeoutMs?: number;
}

/** Why requests fail once the connection is gone, unless the transport says why. */
const CLOSED = 'the supervisor closed the connection';

/** A request waiting for its reply: `method` names the result schema; null for a raw request whose value is not checked. */
type Waiting = { method: IpcMethod | null; resolve: (r: Result<unknown>) => void; timer: ReturnType<typeof setTimeout> | null };

export class ProtocolClient {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private streamListener: ((m: StreamMessage) => void) | null = null;
  private rawListener: ((m: IpcServerMessage) => void) | null = null;
  private closeListener: ((why: string) => void) | null = null;
  private closedWhy: string | null = null;
  /** Set once `hello` is answered. */
  daemon: DaemonHello = { protocol: 0, pid: 0, home: '', startedAt: 0, epoch: null, seq: null };

  private readonly timeoutMs: number;
  /** Requests whose time ran out: a late reply to one is dropped, not taken for someone else's. */
  private readonly expired = new Set<number>();

  constructor(
    private readonly transport: Transport,
    options: ProtocolClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    transport.onFrame((frame) => this.receive(frame));
    transport.onClose((why) => {
      if (this.closedWhy !== null) return;
      this.closedWhy = why || CLOSED;
      for (const w of this.waiting.values()) {
        if (w.timer !== null) clearTimeout(w.timer);
        w.resolve(fail('disconnected', this.closedWhy));
      }
      this.waiting.clear();
      this.closeListener?.(this.closedWhy);
    });
  }

  get isClosed(): boolean {
    return this.closedWhy !== null;
  }

  /** One request; its result is checked against the method's result schema. */
  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    return this.send(method, method, params) as Promise<Result<IpcResult<M>>>;
  }

  /** Fire-and-forget (input, resize, ack): the reply is matched and dropped. */
  notify<M extends IpcMethod>(method: M, params: IpcParams<M>): void {
    if (this.closedWhy === null) this.post(method, null, params, () => undefined);
  }

  /** Says hello; fails, as a `protocol` error naming what to do, when the daemon does not answer it or speaks another version. */
  async hello(o: HelloOptions): Promise<Result<DaemonHello>> {
    return this.heard(await this.send('hello', null, helloParams(o.client)), o);
  }

  /**
   * The `hello` its transport's owner sent before this core existed, as id 1 (early-request.ts), then
   * `requests` sent after it as ids 2, 3, …: each awaited and checked as if sent here. Called before
   * the transport hands this core any message.
   */
  sentAhead<M extends IpcMethod>(o: HelloOptions, ...requests: M[]): { hello: Promise<Result<DaemonHello>>; results: Promise<Result<IpcResult<M>>>[] } {
    const hello = this.expect('hello', null).then((r) => this.heard(r, o));
    return { hello, results: requests.map((m) => this.expect(m, m) as Promise<Result<IpcResult<M>>>) };
  }

  /** What the daemon answered to `hello`: read field by field (a daemon of another version may answer in another shape, and is still named). */
  private heard(r: Result<unknown>, o: HelloOptions): Result<DaemonHello> {
    if (!r.ok) return fail('protocol', `${o.daemonName} did not answer hello (${r.message}); replace it with \`${REPLACE_DAEMON_HINT}\``);
    const v = (r.value ?? {}) as Partial<DaemonHello>;
    this.daemon = {
      protocol: Number(v.protocol),
      pid: Number(v.pid),
      home: String(v.home),
      startedAt: Number(v.startedAt),
      epoch: typeof v.epoch === 'string' ? v.epoch : null,
      seq: typeof v.seq === 'number' ? v.seq : null,
    };
    if (this.daemon.protocol !== PROTOCOL_VERSION && !o.allowOtherVersion) {
      return fail(
        'protocol',
        `the running Mori supervisor (pid ${this.daemon.pid}) speaks protocol ${this.daemon.protocol}, ${o.selfName} speaks ${PROTOCOL_VERSION}: replace it with \`${REPLACE_DAEMON_HINT}\` (tmux agents keep running)`,
      );
    }
    return ok(this.daemon);
  }

  /** Sends one request as given (the web host's bridge): its reply arrives on `onRaw`. */
  sendRaw(frame: string): void {
    if (this.closedWhy === null) this.transport.send(frame);
  }

  onStream(listener: (m: StreamMessage) => void): void {
    this.streamListener = listener;
  }

  /** Every message not matched to a request of this client's: replies to raw requests and stream messages. */
  onRaw(listener: (m: IpcServerMessage) => void): void {
    this.rawListener = listener;
  }

  onClose(listener: (why: string) => void): void {
    this.closeListener = listener;
  }

  private send(method: IpcMethod, schema: IpcMethod | null, params: unknown): Promise<Result<unknown>> {
    const closed = this.closedWhy;
    if (closed !== null) return Promise.resolve(fail('disconnected', closed));
    return new Promise((resolve) => this.post(method, schema, params, resolve));
  }

  /** A request already on the wire under the next id (sentAhead): awaited as one of this core's own. */
  private expect(method: IpcMethod, schema: IpcMethod | null): Promise<Result<unknown>> {
    const closed = this.closedWhy;
    if (closed !== null) return Promise.resolve(fail('disconnected', closed));
    return new Promise((resolve) => this.post(method, schema, undefined, resolve, false));
  }

  /** One request on the wire (unless it is there already), its reply awaited by `resolve`, or its time running out first. */
  private post(method: IpcMethod, schema: IpcMethod | null, params: unknown, resolve: (r: Result<unknown>) => void, send = true): void {
    const id = this.nextId++;
    const timer = LONG_METHODS.includes(method)
      ? null
      : setTimeout(() => {
          if (!this.waiting.delete(id)) return;
          this.expired.add(id);
          resolve(fail('timeout', `${method}: no answer from the Mori supervisor within ${secondsWords(this.timeoutMs)}; it may be stuck (\`mori status\`; \`mori down\` and \`mori up\` restart it)`));
        }, this.timeoutMs);
    this.waiting.set(id, { method: schema, resolve, timer });
    if (send) this.transport.send(requestFrame(id, method, params));
  }

  private receive(frame: string): void {
    let json: unknown;
    try {
      json = JSON.parse(frame);
    } catch {
      return; // not ours to guess at
    }
    const parsed = IpcServerMessage.safeParse(json);
    if (!parsed.success) return;
    const m = parsed.data;
    if (m.kind !== 'reply') {
      this.streamListener?.(m);
      this.rawListener?.(m);
      return;
    }
    const w = this.waiting.get(m.id);
    // Answered after its time ran out: nobody waits for it any more.
    if (!w && this.expired.delete(m.id)) return;
    if (!w) return this.rawListener?.(m);
    this.waiting.delete(m.id);
    if (w.timer !== null) clearTimeout(w.timer);
    if (!m.ok) return w.resolve(fail(m.code, m.message));
    if (w.method === null) return w.resolve(ok(m.value));
    const method: { result: z.core.$ZodType; resultAsSent?: true } = IpcMethods[w.method];
    const result = safeParse(method.result, m.value);
    if (!result.success) return w.resolve(fail('protocol', `${w.method}: the daemon's answer does not match this client's protocol`));
    // A method whose schema checks only the fields clients read hands on the value as sent, unchecked fields included.
    w.resolve(ok(method.resultAsSent ? m.value : result.data));
  }
}

const secondsWords = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** First wait before reconnecting: a restarting daemon answers within a second or two; don't hammer it meanwhile. */
export const RECONNECT_FIRST_MS = 250;
/** Longest wait between attempts: a daemon started by hand, or back after a restart, is found (and the UI's gap ends) within this. */
export const RECONNECT_MAX_MS = 5_000;
/**
 * Longest wait between attempts at a daemon on this machine (its socket, or `mori ui` in front of it):
 * an attempt costs a refused connect, and a window is live again within a second of the daemon's
 * return rather than up to RECONNECT_MAX_MS later. A remote's attempts (ssh) keep RECONNECT_MAX_MS.
 */
export const LOCAL_RECONNECT_MAX_MS = 1_000;

/** The one reconnect backoff: each scheduled attempt waits twice the last, from `firstMs` up to `maxMs` (RECONNECT_MAX_MS). */
export class Reconnect {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delay: number;
  private stopped = false;

  constructor(
    private readonly attempt: () => void,
    private readonly firstMs = RECONNECT_FIRST_MS,
    private readonly maxMs = RECONNECT_MAX_MS,
  ) {
    this.delay = firstMs;
  }

  /** The next attempt, unless one is already waiting or reconnecting was stopped. */
  schedule(): void {
    if (this.stopped || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.attempt();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, this.maxMs);
  }

  /** Connected: the next loss starts again from the first wait. */
  reset(): void {
    this.delay = this.firstMs;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
