// The control socket `$MORI_HOME/mori.sock` (DESIGN.md §9, §11, §12): newline-delimited JSON requests
// of common/ipc.ts, each validated with its zod schema, answered by the running daemon. Every
// connection opens with `hello` (protocol versions); one of another version is told the daemon's and
// refused the rest. A connection may subscribe to events or become an attachment (frames out; input,
// resize, ack and detach in). What a connection has not read is bounded: past MAX_QUEUED_BYTES it is
// dropped with a reason. The socket is 0600 inside a 0700 home and refuses to start otherwise. Every
// request goes through the one dispatch (api/dispatch.ts), which applies the approval gate: an
// approving request is refused when the process that sent it runs inside a supervised agent's tree.
// Runs in the supervisor's process (`mori up`, foreground or daemon).
import { existsSync, lstatSync, statSync, chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { IPC_MAX_LINE_CHARS, IpcRequestEnvelope, type IpcServerMessage } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { dispatch, type Connection, type DaemonContext, type DaemonHooks, type RequestContext } from './api/index.js';
import { StateGrowthWatch } from './state-growth-watch.js';
import { DaemonEvents } from './daemon-events.js';
import { controlSocketPath, socketAnswers } from './control-socket-path.js';
import { peerAtAccept } from './peer-process.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { UsageBook } from './usage-book.js';

export { CONTROL_SOCKET, controlSocketPath } from './control-socket-path.js';

/**
 * Output queued for one connection that it has not read yet, beyond which it is dropped: a client that
 * stops reading must not grow the daemon's memory. 16 MiB holds several full snapshots of a
 * 10,000-line scrollback with colours (a few MiB each), so a slow but live reader is never dropped.
 */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** How long a dropped connection gets to take its last message (the reason) before it is cut. */
const DROP_GRACE_MS = 1_000;

/** Null when the home is private (a directory owned by us, no access for group or others), else why not. */
export function homeUnsafeReason(home: string): string | null {
  let st;
  try {
    st = statSync(home);
  } catch {
    return `${home} does not exist`;
  }
  if (!st.isDirectory()) return `${home} is not a directory`;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${home} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) return `${home} is mode ${(st.mode & 0o777).toString(8)}; the control socket needs a private directory (chmod 700 ${home})`;
  return null;
}

export interface ControlServer {
  readonly path: string;
  close(): Promise<void>;
}

export async function startControlServer(supervisor: Supervisor, home: string, hooks: DaemonHooks = {}): Promise<Result<ControlServer>> {
  const unsafe = homeUnsafeReason(home);
  if (unsafe) return fail('failed', `refusing to open the control socket: ${unsafe}`);
  const file = controlSocketPath(home);
  if (existsSync(file)) {
    if (!lstatSync(file).isSocket()) return fail('conflict', `${file} exists and is not a socket; remove it`);
    if (await socketAnswers(file)) return fail('conflict', `${file}: another supervisor answers on it`);
    unlinkSync(file);
  }
  const events = new DaemonEvents(supervisor, new StateGrowthWatch({ home, write: supervisor.checkpointPorts.write }));
  // Watching before answering: a client that sees the socket answer also sees every later edit.
  await events.sync();
  const ctx: DaemonContext = { ...hooks, supervisor, home, events, startedAt: Date.now(), usage: hooks.usage ?? new UsageBook(process.env) };
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    serve(ctx, socket);
  });
  // Created 0600 from the start (umask), then made sure of it: the home is 0700 either way.
  const umask = process.umask(0o177);
  const listening = new Promise<Error | null>((resolve) => {
    server.once('error', resolve);
    server.listen(file, () => resolve(null));
  });
  process.umask(umask);
  const err = await listening;
  if (err) {
    await events.close();
    return fail('failed', `${file}: cannot listen (${err.message})`);
  }
  chmodSync(file, 0o600);
  return ok({
    path: file,
    close: async () => {
      await new Promise<void>((resolve) => {
        for (const c of connections) c.destroy();
        server.close(() => resolve());
      });
      await events.close();
    },
  });
}

/** One connection: requests in (answered by the one dispatch, api/dispatch.ts), replies and stream messages out. */
function serve(ctx: DaemonContext, socket: net.Socket): void {
  const peer = peerAtAccept(socket);
  let buffer = '';
  let dropped = false;
  const drop = (reason: string): void => {
    if (dropped) return;
    dropped = true;
    connection.detach();
    connection.unsubscribe?.();
    connection.unsubscribe = null;
    process.stderr.write(`mori: dropped a control connection: ${reason}\n`);
    // Behind everything queued; a reader that catches up in time sees why. Cut after a grace either way.
    socket.end(JSON.stringify({ kind: 'closing', reason } satisfies IpcServerMessage) + '\n');
    setTimeout(() => socket.destroy(), DROP_GRACE_MS).unref();
  };
  const connection: Connection = {
    hello: 'none',
    peerProtocol: 0,
    attached: null,
    unsubscribe: null,
    send: (m) => {
      if (socket.destroyed || dropped) return;
      if (socket.writableLength > MAX_QUEUED_BYTES) {
        drop(`the connection stopped reading: more than ${MAX_QUEUED_BYTES} bytes were waiting for it`);
        return;
      }
      socket.write(JSON.stringify(m) + '\n');
    },
    detach: () => {
      connection.attached?.attachment.detach();
      connection.attached = null;
    },
    peer: () => peer.lookup(),
  };
  const request: RequestContext = { ...ctx, connection };
  const send = connection.send;
  const reply = (id: number, r: Result<unknown>): void =>
    send(r.ok ? { kind: 'reply', id, ok: true, value: r.value } : { kind: 'reply', id, ok: false, code: r.code, message: r.message });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > IPC_MAX_LINE_CHARS && !buffer.includes('\n')) {
      send({ kind: 'reply', id: 0, ok: false, code: 'usage', message: `request longer than ${IPC_MAX_LINE_CHARS} characters` });
      socket.destroy();
      return;
    }
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() !== '') {
        handle(line).catch((err: unknown) => {
          // A handler that threw: the request is answered (id unknown here: 0) and the daemon goes on.
          send({ kind: 'reply', id: 0, ok: false, code: 'failed', message: `internal error: ${(err as Error).message ?? String(err)}` });
        });
      }
    }
  });
  socket.on('close', () => {
    connection.detach();
    connection.unsubscribe?.();
  });
  socket.on('error', () => undefined);

  async function handle(line: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return reply(0, fail('usage', 'not JSON'));
    }
    const env = IpcRequestEnvelope.safeParse(json);
    if (!env.success) return reply(typeof (json as { id?: unknown })?.id === 'number' ? (json as { id: number }).id : 0, fail('usage', `bad request: ${env.error.issues[0]?.message ?? 'invalid'}`));
    const { id, method, params } = env.data;
    let result: Result<unknown>;
    try {
      // Answered at once when the handler needs no I/O: replies then keep the requests' order.
      const r = dispatch(request, method, params);
      result = r instanceof Promise ? await r : r;
    } catch (err) {
      result = fail('failed', `${method}: ${(err as Error).message ?? String(err)}`);
    }
    reply(id, result);
  }
}
