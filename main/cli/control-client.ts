// The CLI's side of the control socket (DESIGN.md §9): connects to `$MORI_HOME/mori.sock`, sends
// typed requests of common/ipc.ts, validates every line it receives, and hands stream messages
// (events, frames, detach) to a listener. Runs in the CLI process.
import net from 'node:net';
import { IpcServerMessage, type IpcMethod, type IpcParams } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { moriHome } from '../state/mori-home.js';
import { controlSocketPath } from '../supervisor/control-server.js';

export type StreamMessage = Exclude<IpcServerMessage, { kind: 'reply' }>;

export class ControlClient {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, (r: Result<unknown>) => void>();
  private streamListener: ((m: StreamMessage) => void) | null = null;
  private closeListener: (() => void) | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('close', () => {
      for (const resolve of this.pending.values()) resolve(fail('failed', 'the supervisor closed the connection'));
      this.pending.clear();
      this.closeListener?.();
    });
    socket.on('error', () => undefined);
  }

  /** Connects to the running supervisor of this Mori home; fails clearly when none runs. */
  static connect(home = moriHome()): Promise<Result<ControlClient>> {
    const file = controlSocketPath(home);
    return new Promise((resolve) => {
      const socket = net.connect(file);
      socket.once('connect', () => resolve(ok(new ControlClient(socket))));
      socket.once('error', (err: NodeJS.ErrnoException) => {
        const none = err.code === 'ENOENT' || err.code === 'ECONNREFUSED';
        resolve(fail('failed', none ? `no Mori supervisor is running for ${home} (start one with \`mori up\`)` : `${file}: ${err.message}`));
      });
    });
  }

  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.write(JSON.stringify({ id, method, params }) + '\n');
    });
  }

  /** Fire-and-forget (input, resize, ack): their replies are dropped. */
  notify<M extends IpcMethod>(method: M, params: IpcParams<M>): void {
    const id = this.nextId++;
    this.pending.set(id, () => undefined);
    this.socket.write(JSON.stringify({ id, method, params }) + '\n');
  }

  onStream(listener: (m: StreamMessage) => void): void {
    this.streamListener = listener;
  }

  onClose(listener: () => void): void {
    this.closeListener = listener;
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }

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
        this.pending.delete(m.id);
        resolve?.(m.ok ? ok(m.value) : fail(m.code, m.message));
      } else this.streamListener?.(m);
    }
  }
}
