// The web host (`mori ui`, DESIGN.md §2, §11, §12): an HTTP server (HTTPS with `tls`) that serves the renderer (or a
// placeholder), trades the printed link's launch token once for a session secret (web-auth.ts), and
// one WebSocket per page at /api that, once its first message carried that secret, speaks exactly the
// control API — one JSON message per WebSocket message — bridged to the daemon's socket, one daemon
// connection per WebSocket. Refuses a foreign Host or Origin. Nothing a client sends or does (a reset
// mid-upgrade, garbage, a flood of sockets) can end the process: socket errors are handled before
// anything is written, WebSockets are bounded (MAX_WEB_SOCKETS), and so are verifications per
// WebSocket. What a page has not read is bounded: past MAX_WS_BUFFERED_BYTES it is disconnected with
// a reason. When the daemon goes away its WebSockets are closed (1012) and the page reconnects.
// `/api?host=NAME` bridges to a remote's daemon instead, through the connector `mori ui` passes in
// (ssh to that host's `mori bridge`, which refuses approvals there): the same API, that host's sessions.
// Runs in the `mori ui` process.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { fail, type Result } from '../../common/result.js';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { IPC_MAX_LINE_CHARS, IpcRequestEnvelope, type IpcServerMessage } from '../../common/ipc.js';
import { MAX_TOKEN_CHARS, REMOTES_PATH, SESSION_PATH, TOKEN_PARAM, WebAuthMessage, WS_UNAUTHORIZED, WS_UNAUTHORIZED_REASON, type WebRemotesReply } from '../../common/web-session.js';
import { API_PATH } from '../../common/web-session-names.js';
import { ControlClient } from '../daemon-client/control-client.js';
import { closeReason } from './close-reason.js';
import { hostAllowed, newToken, originAllowed, WebAuth } from './web-auth.js';
import { rendererRoot, securityHeaders, serveStatic } from './static-files.js';
import type { TlsFiles } from './tls-files.js';

/** Unsent output per page beyond which it is dropped, as the daemon does per connection (16 MiB). */
export const MAX_WS_BUFFERED_BYTES = 16 * 1024 * 1024;
/**
 * Open WebSockets (authenticated or not) beyond which an upgrade is refused with 503. A window uses
 * one plus one per open terminal; 64 is far beyond what a person opens, and bounds the daemon
 * connections a local client can make through this host.
 */
export const MAX_WEB_SOCKETS = 64;
/** How long a WebSocket may take to send its secret: a page sends it at once; 10 s covers a busy machine. */
export const AUTH_TIMEOUT_MS = 10_000;
/** The built renderer, beside the CLI's build: out/renderer/ (this file is out/cli/main/web/web-host.js). */
export const RENDERER_DIR = fileURLToPath(new URL('../../../renderer/', import.meta.url));

/** The query parameter naming the remote a WebSocket at /api speaks to (absent: this host's daemon). */
export const HOST_PARAM = 'host';

/** A daemon connection the bridge relays a page to: this host's (ControlClient) or a remote's over ssh. */
export interface Upstream {
  sendRaw(line: string): void;
  onRaw(listener: (m: IpcServerMessage) => void): void;
  onClose(listener: (why: string) => void): void;
  close(): void;
}

export interface WebHostOptions {
  home: string;
  host: string;
  /** 0: any free port. */
  port: number;
  token?: string;
  rendererDir?: string;
  /** The launch token's lifetime (web-auth.ts's LAUNCH_TOKEN_TTL_MS unless given). */
  tokenTtlMs?: number;
  /** Called once the launch token was exchanged (or refused after its time): the link is spent. */
  onTokenSpent?: () => void;
  /** Connects to the remote named in `?host=`; without it such a WebSocket is refused. */
  connectRemote?: (name: string) => Promise<Result<Upstream>>;
  /** The remotes' names, for a page's REMOTES_PATH (none without it). */
  listRemotes?: () => Result<string[]>;
  /** The page's request time limit, told with its secret (protocol-client.ts's when absent). */
  requestTimeoutMs?: number;
  /** Served over HTTPS with this certificate and key (tls-files.ts), the link and the WebSocket too; plain HTTP without. */
  tls?: TlsFiles;
}

export interface WebHost {
  /** The link to open, its launch token in the fragment: `http://127.0.0.1:PORT/#token=…` (`https://` with TLS). */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken();
  const auth = new WebAuth(token, Date.now, options.tokenTtlMs);
  const root = rendererRoot(options.rendererDir ?? RENDERER_DIR);
  let port = options.port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const sockets = new Set<WebSocket>();
  /** Every socket past the upgrade's checks, until it closes: handshaking, authenticating or bridged. */
  const upgraded = new Set<Duplex>();
  const scheme = options.tls ? 'https' : 'http';

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const headers = securityHeaders(`${options.tls ? 'wss' : 'ws'}://${req.headers.host ?? `${hostForUrl}:${port}`}`);
    const plain = (status: number, text: string, extra: Record<string, string> = {}): void => {
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
      res.end(text + '\n');
    };
    if (!hostAllowed(req.headers.host, options.host, port)) return plain(421, 'wrong host');
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    if (url.pathname === SESSION_PATH) {
      if (req.method !== 'POST') return plain(405, 'method not allowed', { Allow: 'POST' });
      if (!originAllowed(req, scheme)) return plain(403, 'forbidden: not this host\'s own page');
      return readBody(req, MAX_TOKEN_CHARS, (body) => {
        if (body === null) return plain(413, 'too large');
        const r = auth.exchange(body.trim());
        if (auth.spent) options.onTokenSpent?.();
        if (!r.ok) return plain(401, r.message);
        const json = JSON.stringify({ secret: r.value, ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}) });
        res.writeHead(200, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
        res.end(json);
      });
    }
    if (url.pathname === REMOTES_PATH) {
      // The secret as the body, as the exchange takes its token: no header or URL holds a credential.
      if (req.method !== 'POST') return plain(405, 'method not allowed', { Allow: 'POST' });
      if (!originAllowed(req, scheme)) return plain(403, 'forbidden: not this host\'s own page');
      return readBody(req, MAX_TOKEN_CHARS, (body) => {
        if (body === null) return plain(413, 'too large');
        if (!auth.secretValid(body.trim())) return plain(401, 'not authorized');
        const names = options.listRemotes?.() ?? { ok: true as const, value: [] };
        if (!names.ok) return plain(500, names.message);
        const reply: WebRemotesReply = { remotes: names.value.map((name) => ({ name })) };
        const json = JSON.stringify(reply);
        res.writeHead(200, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
        res.end(json);
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'method not allowed', { Allow: 'GET, HEAD' });
    // The built page holds no secret (it asks for one with the link's token), so it is served to any
    // client that names this host; everything that acts (the exchange, /api) needs the token or secret.
    serveStatic(root, url.pathname, res, headers);
  };
  const server = options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest) : http.createServer(onRequest);
  // A malformed, oversized or reset request: answer 400 when the socket still can, never throw.
  server.on('clientError', (_err: Error, socket: Duplex) => {
    socket.on('error', () => undefined);
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: IPC_MAX_LINE_CHARS });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // First, before anything is written: a client that resets the connection must not end the process.
    socket.on('error', () => socket.destroy());
    const refuse = (status: number, text: string): void => {
      if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      else socket.destroy();
    };
    const target = new URL(req.url ?? '/', 'http://host.invalid');
    if (target.pathname !== API_PATH) return refuse(404, 'Not Found');
    const remote = target.searchParams.get(HOST_PARAM);
    if (!hostAllowed(req.headers.host, options.host, port)) return refuse(421, 'Misdirected Request');
    if (!originAllowed(req, scheme)) return refuse(403, 'Forbidden');
    if (upgraded.size >= MAX_WEB_SOCKETS) return refuse(503, 'Service Unavailable');
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => undefined);
      authenticate(ws, auth, () => {
        const connect = (): Promise<Result<Upstream>> => {
          if (remote === null) return ControlClient.connect(options.home, { client: 'web host' });
          if (!options.connectRemote) return Promise.resolve(fail('usage', 'this host reaches no remotes'));
          return options.connectRemote(remote);
        };
        bridge(ws, connect).catch((err: unknown) => ws.close(1011, closeReason(`bridge failed: ${(err as Error).message ?? String(err)}`)));
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : options.port;
  return {
    url: `${scheme}://${hostForUrl}:${port}/#${TOKEN_PARAM}=${token}`,
    port,
    token,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request's body as text, or null past `max` chars (the request is then not read further). */
function readBody(req: IncomingMessage, max: number, done: (body: string | null) => void): void {
  let body = '';
  let over = false;
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    if (over) return;
    body += chunk;
    if (body.length > max) {
      over = true;
      done(null);
    }
  });
  req.on('end', () => {
    if (!over) done(body);
  });
  req.on('error', () => undefined);
}

/** The WebSocket's first message must carry the session secret, within AUTH_TIMEOUT_MS; else it is closed. */
function authenticate(ws: WebSocket, auth: WebAuth, then: () => void): void {
  const refuse = (): void => ws.close(WS_UNAUTHORIZED, WS_UNAUTHORIZED_REASON);
  const timer = setTimeout(refuse, AUTH_TIMEOUT_MS);
  ws.once('close', () => clearTimeout(timer));
  ws.once('message', (data, isBinary) => {
    clearTimeout(timer);
    let parsed;
    try {
      parsed = isBinary ? null : WebAuthMessage.safeParse(JSON.parse(data.toString()));
    } catch {
      parsed = null;
    }
    if (!parsed?.success || !auth.secretValid(parsed.data.secret)) return refuse();
    then();
  });
}

/**
 * One page's WebSocket ↔ its own daemon connection: requests in, replies and streams out, verbatim.
 * A verification runs checks (and may restart services): one at a time per session named on this
 * WebSocket; a further one, while it runs, is answered `conflict` at once.
 */
async function bridge(ws: WebSocket, connect: () => Promise<Result<Upstream>>): Promise<void> {
  const pendingFromPage: string[] = [];
  /** Request id → the session a running checks.verify names. */
  const verifying = new Map<number, string>();
  let daemon: Upstream | null = null;
  const answer = (id: number, code: string, message: string): void => ws.send(JSON.stringify({ kind: 'reply', id, ok: false, code, message }));
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.close(1003, 'text messages only');
    const text = data.toString();
    let request;
    try {
      // Re-serialised: one request per line, whatever whitespace the page sent.
      const parsed = IpcRequestEnvelope.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'invalid');
      request = parsed.data;
    } catch (err) {
      return answer(0, 'usage', `bad request: ${(err as Error).message}`);
    }
    // A request reusing a running verification's id would end its bound early.
    if (verifying.has(request.id)) return answer(request.id, 'usage', `request id ${request.id} is still in use`);
    if (request.method === 'checks.verify') {
      const session = String((request.params as { session?: unknown } | undefined)?.session ?? '');
      if ([...verifying.values()].includes(session)) return answer(request.id, 'conflict', `the checks of ${session} are already running; wait for them to finish`);
      verifying.set(request.id, session);
    }
    const line = JSON.stringify(request);
    if (daemon) daemon.sendRaw(line);
    else pendingFromPage.push(line);
  });
  ws.on('close', () => daemon?.close());

  const connected = await connect();
  if (!connected.ok) {
    // The page shows the reason as why it is not connected (cut to a close frame's 123 bytes at a word).
    ws.close(1011, closeReason(connected.message));
    return;
  }
  daemon = connected.value;
  if (ws.readyState !== ws.OPEN) return daemon.close();
  daemon.onRaw((m) => {
    if (m.kind === 'reply') verifying.delete(m.id);
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_WS_BUFFERED_BYTES) {
      ws.close(1008, 'the page stopped reading');
      daemon?.close();
      return;
    }
    ws.send(JSON.stringify(m));
  });
  daemon.onClose(() => {
    // 1012 "service restart": the page reconnects when the daemon is back.
    if (ws.readyState === ws.OPEN) ws.close(1012, 'the Mori daemon went away');
  });
  for (const line of pendingFromPage.splice(0)) daemon.sendRaw(line);
}
