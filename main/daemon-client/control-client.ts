// A client's side of the control socket (DESIGN.md §9, §12): connects to `$MORI_HOME/mori.sock`, says
// `hello` with the protocol version (a daemon of another version is named, with what to do, instead of
// failing on a schema), sends typed requests of common/ipc.ts, validates every line it receives, and
// hands stream messages (events, frames, detach, closing) to a listener. Runs in any Node client
// process: the CLI, the web host, the Electron main process.
import net from 'node:net';
import { IpcServerMessage, PROTOCOL_VERSION, REPLACE_DAEMON_HINT, type IpcMethod, type IpcParams } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { moriHome } from '../state/mori-home.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';

export type StreamMessage = Exclude<IpcServerMessage, { kind: 'reply' }>;

/** What the daemon said in its `hello`. */
export interface DaemonHello {
  protocol: number;
  pid: number;
  home: string;
  startedAt: number;
}

export interface ConnectOptions {
  /** Keep a connection to a daemon of another protocol version (`mori down` stops it). */
  allowOtherVersion?: boolean;
  /** Who connects, for the daemon's log. */
  client?: string;
}

/** The message when nothing answers; commands that start the daemon look for it. */
export const noDaemonMessage = (home: string): string => `no Mori supervisor is running for ${home} (start one with \`mori up --daemon\`)`;

export class ControlClient {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, (r: Result<unknown>) => void>();
  private streamListener: ((m: StreamMessage) => void) | null = null;
  private closeListener: (() => void) | null = null;
  private closed = false;
  /** Set once `hello` is answered. */
  daemon: DaemonHello = { protocol: 0, pid: 0, home: '', startedAt: 0 };

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('close', () => {
      this.closed = true;
      for (const resolve of this.pending.values()) resolve(fail('failed', 'the supervisor closed the connection'));
      this.pending.clear();
      this.closeListener?.();
    });
    socket.on('error', () => undefined);
  }

  /** Connects to the running supervisor of this Mori home and says hello; fails clearly when none runs. */
  static async connect(home = moriHome(), opts: ConnectOptions = {}): Promise<Result<ControlClient>> {
    const file = controlSocketPath(home);
    const connected = await new Promise<Result<ControlClient>>((resolve) => {
      const socket = net.connect(file);
      socket.once('connect', () => resolve(ok(new ControlClient(socket))));
      socket.once('error', (err: NodeJS.ErrnoException) => {
        const none = err.code === 'ENOENT' || err.code === 'ECONNREFUSED';
        resolve(fail('failed', none ? noDaemonMessage(home) : `${file}: ${err.message}`));
      });
    });
    if (!connected.ok) return connected;
    const client = connected.value;
    const hello = await client.request('hello', { protocol: PROTOCOL_VERSION, client: opts.client ?? `mori cli (pid ${process.pid})` });
    if (!hello.ok) {
      client.close();
      return fail('failed', `the Mori supervisor on ${file} did not answer hello (${hello.message}); replace it with \`${REPLACE_DAEMON_HINT}\``);
    }
    const v = hello.value as Partial<DaemonHello>;
    client.daemon = { protocol: Number(v.protocol), pid: Number(v.pid), home: String(v.home), startedAt: Number(v.startedAt) };
    if (client.daemon.protocol !== PROTOCOL_VERSION && !opts.allowOtherVersion) {
      client.close();
      return fail(
        'failed',
        `the running Mori supervisor (pid ${client.daemon.pid}) speaks protocol ${client.daemon.protocol}, this mori speaks ${PROTOCOL_VERSION}: replace it with \`${REPLACE_DAEMON_HINT}\` (tmux agents keep running)`,
      );
    }
    return ok(client);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<unknown>> {
    if (this.closed) return Promise.resolve(fail('failed', 'the supervisor closed the connection'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  /** Fire-and-forget (input, resize, ack): their replies are dropped. */
  notify<M extends IpcMethod>(method: M, params: IpcParams<M>): void {
    if (this.closed) return;
    const id = this.nextId++;
    this.pending.set(id, () => undefined);
    this.socket.write(JSON.stringify({ id, method, params }) + '\n');
  }

  /** Sends one request line as given (the web host's bridge); the reply arrives as a raw message. */
  sendRaw(line: string): void {
    if (!this.closed) this.socket.write(line.endsWith('\n') ? line : line + '\n');
  }

  onStream(listener: (m: StreamMessage) => void): void {
    this.streamListener = listener;
  }

  onClose(listener: () => void): void {
    this.closeListener = listener;
  }

  /** Every message as received (replies included), instead of matching replies to requests. */
  onRaw(listener: (m: IpcServerMessage) => void): void {
    this.rawListener = listener;
  }

  /** Stops reading (back-pressure): the daemon queues, then drops this connection past its bound. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }

  private rawListener: ((m: IpcServerMessage) => void) | null = null;

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // not ours to guess at
      }
      const parsed = IpcServerMessage.safeParse(json);
      if (!parsed.success) continue;
      const m = parsed.data;
      if (m.kind === 'reply') {
        const resolve = this.pending.get(m.id);
        if (resolve) {
          this.pending.delete(m.id);
          resolve(m.ok ? ok(m.value) : fail(m.code, m.message));
          continue;
        }
        this.rawListener?.(m);
      } else {
        this.streamListener?.(m);
        this.rawListener?.(m);
      }
    }
  }
}
