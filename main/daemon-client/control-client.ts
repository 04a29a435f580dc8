// A client's side of the control socket (DESIGN.md §9, §12): connects to `$MORI_HOME/mori.sock` and
// carries common/protocol-client.ts (reply matching, `hello` with the protocol version, result
// validation) over it as newline-delimited JSON. A daemon of another version is named, with what to
// do, instead of failing on a schema. Stream messages (events, frames, detach, closing) go to a
// listener. Runs in any Node client process: the CLI, the web host, the Electron main process.
import net from 'node:net';
import type { IpcMethod, IpcParams, IpcResult, IpcServerMessage } from '../../common/ipc.js';
import { ProtocolClient, type DaemonHello, type HelloOptions, type StreamMessage, type Transport } from '../../common/protocol-client.js';
import { fail, ok, type Result } from '../../common/result.js';
import { moriHome } from '../state/mori-home.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';
import type { EarlyConnection } from './early-request.js';

export type { DaemonHello, StreamMessage } from '../../common/protocol-client.js';

export interface ConnectOptions {
  /** Keep a connection to a daemon of another protocol version (`mori down` stops it). */
  allowOtherVersion?: boolean;
  /** Who connects, for the daemon's log. */
  client?: string;
}

/** The message when nothing answers. */
export const noDaemonMessage = (home: string): string => `no Mori supervisor is running for ${home} (start one with \`mori up --daemon\`)`;

/** The socket as the core's transport: one message per line; `early`'s text first when the connection was opened by early-request.ts. */
function lineTransport(socket: net.Socket, early?: EarlyConnection): Transport & { start(): void } {
  let buffer = '';
  let onFrame: (frame: string) => void = () => undefined;
  let onClose: (why: string) => void = () => undefined;
  socket.setEncoding('utf8');
  const onChunk = (chunk: string): void => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onFrame(line);
    }
  };
  if (!early) socket.on('data', onChunk);
  socket.on('close', () => onClose('the supervisor closed the connection'));
  socket.on('error', () => undefined);
  return {
    send: (frame) => void socket.write(frame.endsWith('\n') ? frame : frame + '\n'),
    onFrame: (l) => (onFrame = l),
    onClose: (l) => (onClose = l),
    // The early connection's messages are handed over once the core awaits its replies.
    start: () => early?.handOver(onChunk),
  };
}

function helloOptions(home: string, opts: ConnectOptions): HelloOptions {
  return {
    client: opts.client ?? `mori cli (pid ${process.pid})`,
    allowOtherVersion: opts.allowOtherVersion,
    daemonName: `the Mori supervisor on ${controlSocketPath(home)}`,
    selfName: 'this mori',
  };
}

export class ControlClient {
  private readonly core: ProtocolClient;

  private readonly transport: ReturnType<typeof lineTransport>;

  private constructor(
    private readonly socket: net.Socket,
    early?: EarlyConnection,
  ) {
    this.transport = lineTransport(socket, early);
    this.core = new ProtocolClient(this.transport);
  }

  /**
   * The connection early-request.ts opened, with `hello` and one `method` request written on it before
   * this module loaded: both replies awaited and checked as connect() and request() check theirs. The
   * request's result is null when hello failed (no supervisor of this version answered).
   */
  static async adopt<M extends IpcMethod>(early: EarlyConnection, method: M, home = moriHome(), opts: ConnectOptions = {}): Promise<Result<{ client: ControlClient; result: Result<IpcResult<M>> }>> {
    const client = new ControlClient(early.socket, early);
    const ahead = client.core.sentAhead(helloOptions(home, opts), method);
    client.transport.start();
    const hello = await ahead.hello;
    if (!hello.ok) {
      client.close();
      return hello;
    }
    return ok({ client, result: await (ahead.results[0] as Promise<Result<IpcResult<M>>>) });
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
    const hello = await client.core.hello(helloOptions(home, opts));
    if (!hello.ok) {
      client.close();
      return hello;
    }
    return ok(client);
  }

  /** What the daemon said in its `hello`. */
  get daemon(): DaemonHello {
    return this.core.daemon;
  }

  get isClosed(): boolean {
    return this.core.isClosed;
  }

  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    return this.core.request(method, params);
  }

  /** Fire-and-forget (input, resize, ack): their replies are dropped. */
  notify<M extends IpcMethod>(method: M, params: IpcParams<M>): void {
    this.core.notify(method, params);
  }

  /** Sends one request line as given (the web host's bridge); the reply arrives as a raw message. */
  sendRaw(line: string): void {
    this.core.sendRaw(line);
  }

  onStream(listener: (m: StreamMessage) => void): void {
    this.core.onStream(listener);
  }

  /** The connection ended, and why. */
  onClose(listener: (why: string) => void): void {
    this.core.onClose(listener);
  }

  /** Every message not matched to a request of this client's (the web host's bridged replies, stream messages). */
  onRaw(listener: (m: IpcServerMessage) => void): void {
    this.core.onRaw(listener);
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
}
