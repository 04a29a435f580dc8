// The control socket `$MORI_HOME/mori.sock` (DESIGN.md §9, §11, §12): newline-delimited JSON requests
// of common/ipc.ts, each validated with its zod schema, answered by the running daemon. Every
// connection opens with `hello` (protocol versions); one of another version is told the daemon's and
// refused the rest. A connection may subscribe to events or become an attachment (frames out; input,
// resize, ack and detach in). What a connection has not read is bounded: past MAX_QUEUED_BYTES it is
// dropped with a reason. The socket is 0600 inside a 0700 home and refuses to start otherwise. An
// approving request (approval-gate.ts) is refused when the process that sent it runs inside a
// supervised agent's process tree.
// Runs in the supervisor's process (`mori up`, foreground or daemon).
import { existsSync, lstatSync, statSync, chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { IPC_MAX_LINE_CHARS, IpcRequestEnvelope, parseParams, PROTOCOL_VERSION, REPLACE_DAEMON_HINT, type IpcMethod, type IpcServerMessage } from '../../common/ipc.js';
import { fail, ok, type Failure, type Result } from '../../common/result.js';
import { appendEntry } from '../state/work-log.js';
import type { Attachment, Terminal } from '../terminals/terminal.js';
import { approvingAction, judgePeer, runningAgents } from './approval-gate.js';
import { DAEMON_API_METHODS, handleDaemonRequest, type DaemonContext, type DaemonHooks } from './api/index.js';
import { DaemonEvents } from './daemon-events.js';
import { controlSocketPath, socketAnswers } from './control-socket-path.js';
import { peerProcesses } from './peer-process.js';
import type { Supervisor } from '../supervisor/supervisor.js';

export { CONTROL_SOCKET, controlSocketPath } from './control-socket-path.js';

/**
 * Output queued for one connection that it has not read yet, beyond which it is dropped: a client that
 * stops reading must not grow the daemon's memory. 16 MiB holds several full snapshots of a
 * 10,000-line scrollback with colours (a few MiB each), so a slow but live reader is never dropped.
 */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** How long a dropped connection gets to take its last message (the reason) before it is cut. */
const DROP_GRACE_MS = 1_000;
/** A refused approval is recorded at most this often per session and method: an agent asking in a loop must not fill the logs. */
const REFUSAL_RECORD_EVERY_MS = 60_000;
/** When a refusal was last recorded, by state dir and method. One daemon per process. */
const refusalRecorded = new Map<string, number>();

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
  const events = new DaemonEvents(supervisor);
  // Watching before answering: a client that sees the socket answer also sees every later edit.
  await events.sync();
  const ctx: DaemonContext = { ...hooks, supervisor, home, events, startedAt: Date.now() };
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

/** One connection: `hello`, then requests in, replies and stream messages out. */
function serve(ctx: DaemonContext, socket: net.Socket): void {
  const { supervisor } = ctx;
  let buffer = '';
  let attached: { attachment: Attachment; terminal: Terminal } | null = null;
  let unsubscribe: (() => void) | null = null;
  let hello: 'none' | 'ok' | 'other-version' = 'none';
  let peerProtocol = 0;
  let dropped = false;
  const detach = (): void => {
    attached?.attachment.detach();
    attached = null;
  };
  const drop = (reason: string): void => {
    if (dropped) return;
    dropped = true;
    detach();
    unsubscribe?.();
    unsubscribe = null;
    process.stderr.write(`mori: dropped a control connection: ${reason}\n`);
    // Behind everything queued; a reader that catches up in time sees why. Cut after a grace either way.
    socket.end(JSON.stringify({ kind: 'closing', reason } satisfies IpcServerMessage) + '\n');
    setTimeout(() => socket.destroy(), DROP_GRACE_MS).unref();
  };
  const send = (m: IpcServerMessage): void => {
    if (socket.destroyed || dropped) return;
    if (socket.writableLength > MAX_QUEUED_BYTES) {
      drop(`the connection stopped reading: more than ${MAX_QUEUED_BYTES} bytes were waiting for it`);
      return;
    }
    socket.write(JSON.stringify(m) + '\n');
  };
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
    let result: Result<unknown>;
    try {
      result = await dispatch(method, params);
    } catch (err) {
      result = fail('failed', `${method}: ${(err as Error).message ?? String(err)}`);
    }
    reply(id, result);
  }

  /** An approving request from inside a supervised agent's process tree: the refusal, logged for the person. */
  async function refusedApproval(method: IpcMethod, raw: unknown): Promise<Failure | null> {
    const action = approvingAction(method, raw);
    if (action === null) return null;
    const agents = runningAgents(supervisor.list());
    if (agents.length === 0) return null;
    const refusal = judgePeer(await peerProcesses(socket), agents, action);
    if (!refusal) return null;
    // Told once a minute per session and method, in the daemon's log and where the person reads what
    // the session did (the window's log, `mori status`): an agent asking in a loop fills neither.
    const dir = refusal.agent?.stateDir ?? null;
    const key = `${dir ?? '(unknown)'}\0${method}`;
    if (Date.now() - (refusalRecorded.get(key) ?? 0) < REFUSAL_RECORD_EVERY_MS) return refusal.failure;
    refusalRecorded.set(key, Date.now());
    process.stderr.write(`mori: refused ${method}: ${refusal.failure.message}\n`);
    if (dir) {
      try {
        appendEntry(dir, [`APPROVAL REFUSED - ${method} asked from inside this session's agent: ${refusal.failure.message}`]);
      } catch (err) {
        process.stderr.write(`mori: could not record the refusal in ${dir}: ${(err as Error).message}\n`);
      }
    }
    return refusal.failure;
  }

  async function dispatch(method: IpcMethod, raw: unknown): Promise<Result<unknown>> {
    const bad = (m: string): Failure => fail('usage', m);
    if (method === 'hello') {
      const p = parseParams('hello', raw);
      if (!p.ok) return bad(p.message);
      peerProtocol = p.value.protocol;
      hello = peerProtocol === PROTOCOL_VERSION ? 'ok' : 'other-version';
      return ok({ protocol: PROTOCOL_VERSION, pid: process.pid, home: ctx.home, startedAt: ctx.startedAt });
    }
    if (hello === 'none') return bad(`${method}: say hello first ({"method":"hello","params":{"protocol":${PROTOCOL_VERSION}}})`);
    const refused = await refusedApproval(method, raw);
    if (refused) return refused;
    // `daemon.stop` is understood across versions: it is how an old daemon is replaced.
    if (hello === 'other-version' && method !== 'daemon.stop') {
      return fail('conflict', `the Mori daemon speaks protocol ${PROTOCOL_VERSION}, this client ${peerProtocol}: replace it with \`${REPLACE_DAEMON_HINT}\``);
    }
    if (DAEMON_API_METHODS.has(method)) return handleDaemonRequest(ctx, method, raw);
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
        unsubscribe ??= ctx.events.on((event) => send({ kind: 'event', event }));
        return ok({});
      default:
        return fail('usage', `${method}: unknown method`);
    }
  }
}
