// The control socket `$MORI_HOME/mori.sock` (DESIGN.md §9, §11): newline-delimited JSON requests
// of common/ipc.ts, each validated with its zod schema, answered by the running Supervisor. The
// socket is 0600 inside a 0700 home and refuses to start otherwise. A connection may subscribe to
// events or become an attachment (frames out; input, resize, ack and detach in).
// Runs in the supervisor's process (`mori up`, later the Electron main process).
import { existsSync, lstatSync, statSync, chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { IPC_MAX_LINE_CHARS, IpcRequestEnvelope, parseParams, type IpcMethod, type IpcServerMessage } from '../../common/ipc.js';
import { fail, ok, type Failure, type Result } from '../../common/result.js';
import type { Attachment, Terminal } from '../terminals/terminal.js';
import type { Supervisor } from './supervisor.js';

export const CONTROL_SOCKET = 'mori.sock';

export const controlSocketPath = (home: string): string => path.join(home, CONTROL_SOCKET);

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

/** Whether something answers on the socket (another supervisor), so a stale file can be removed. */
function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(file);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export interface ControlServer {
  readonly path: string;
  close(): Promise<void>;
}

export async function startControlServer(supervisor: Supervisor, home: string): Promise<Result<ControlServer>> {
  const unsafe = homeUnsafeReason(home);
  if (unsafe) return fail('failed', `refusing to open the control socket: ${unsafe}`);
  const file = controlSocketPath(home);
  if (existsSync(file)) {
    if (!lstatSync(file).isSocket()) return fail('conflict', `${file} exists and is not a socket; remove it`);
    if (await answers(file)) return fail('conflict', `${file}: another supervisor answers on it`);
    unlinkSync(file);
  }
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    serve(supervisor, socket);
  });
  // Created 0600 from the start (umask), then made sure of it: the home is 0700 either way.
  const umask = process.umask(0o177);
  const listening = new Promise<Error | null>((resolve) => {
    server.once('error', resolve);
    server.listen(file, () => resolve(null));
  });
  process.umask(umask);
  const err = await listening;
  if (err) return fail('failed', `${file}: cannot listen (${err.message})`);
  chmodSync(file, 0o600);
  return ok({
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.destroy();
        server.close(() => resolve());
      }),
  });
}

/** One connection: requests in, replies and stream messages out. */
function serve(supervisor: Supervisor, socket: net.Socket): void {
  let buffer = '';
  let attached: { attachment: Attachment; terminal: Terminal } | null = null;
  let unsubscribe: (() => void) | null = null;
  const send = (m: IpcServerMessage): void => {
    if (!socket.destroyed) socket.write(JSON.stringify(m) + '\n');
  };
  const reply = (id: number, r: Result<unknown>): void =>
    send(r.ok ? { kind: 'reply', id, ok: true, value: r.value } : { kind: 'reply', id, ok: false, code: r.code, message: r.message });
  const detach = (): void => {
    attached?.attachment.detach();
    attached = null;
  };
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
      // handle() answers every request itself, failures included; this file is being rewritten.
      // eslint-disable-next-line @typescript-eslint/no-floating-promises
      if (line.trim() !== '') void handle(line);
    }
  });
  socket.on('close', () => {
    detach();
    unsubscribe?.();
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
    reply(id, await dispatch(method, params));
  }

  async function dispatch(method: IpcMethod, raw: unknown): Promise<Result<unknown>> {
    const bad = (m: string): Failure => fail('usage', m);
    switch (method) {
      case 'list':
        return ok(supervisor.list());
      case 'start': {
        const p = parseParams('start', raw);
        return p.ok ? supervisor.startSession(p.value.session) : bad(p.message);
      }
      case 'stop': {
        const p = parseParams('stop', raw);
        return p.ok ? supervisor.stopSession(p.value.session) : bad(p.message);
      }
      case 'send': {
        const p = parseParams('send', raw);
        return p.ok ? supervisor.send(p.value.session, p.value.text, p.value.enter) : bad(p.message);
      }
      case 'attach': {
        const p = parseParams('attach', raw);
        if (!p.ok) return bad(p.message);
        if (attached) return fail('conflict', 'this connection is already attached');
        const r = supervisor.attach(
          p.value.session,
          { frame: (frame) => send({ kind: 'frame', frame }) },
          (reason) => {
            attached = null;
            send({ kind: 'detached', reason });
          },
        );
        if (!r.ok) return r;
        attached = { attachment: r.value.attachment, terminal: r.value.terminal };
        r.value.terminal.resize(p.value.cols, p.value.rows);
        return ok(r.value.info);
      }
      case 'input': {
        const p = parseParams('input', raw);
        if (!p.ok) return bad(p.message);
        if (!attached) return fail('usage', 'not attached');
        attached.terminal.write(p.value.data);
        return ok({});
      }
      case 'resize': {
        const p = parseParams('resize', raw);
        if (!p.ok) return bad(p.message);
        if (!attached) return fail('usage', 'not attached');
        attached.terminal.resize(p.value.cols, p.value.rows);
        return ok({});
      }
      case 'ack': {
        const p = parseParams('ack', raw);
        if (!p.ok) return bad(p.message);
        attached?.attachment.ack(p.value.chars);
        return ok({});
      }
      case 'detach':
        detach();
        return ok({});
      case 'subscribe':
        unsubscribe ??= supervisor.on((event) => send({ kind: 'event', event }));
        return ok({});
    }
  }
}
