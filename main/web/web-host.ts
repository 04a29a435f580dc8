// The web host (`mori ui`, DESIGN.md §2, §11, §12): an HTTP server that serves the renderer (or a
// placeholder) to whoever holds the token, and one WebSocket at /api that speaks exactly the control
// API — one JSON message per WebSocket message — bridged to the daemon's socket, one daemon
// connection per WebSocket. Refuses a missing cookie and a foreign Origin. What a page has not read
// is bounded: past MAX_WS_BUFFERED_BYTES it is disconnected with a reason. When the daemon goes away
// its WebSockets are closed (1012) and the page reconnects. Runs in the `mori ui` process.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { IPC_MAX_LINE_CHARS, IpcRequestEnvelope } from '../../common/ipc.js';
import { ControlClient } from '../cli/control-client.js';
import { cookieHeader, cookieToken, hostAllowed, newToken, originAllowed, sameToken } from './web-auth.js';
import { rendererRoot, securityHeaders, serveStatic } from './static-files.js';

export const API_PATH = '/api';
/** Unsent output per page beyond which it is dropped, as the daemon does per connection (16 MiB). */
export const MAX_WS_BUFFERED_BYTES = 16 * 1024 * 1024;
/** The built renderer, beside the CLI's build: out/renderer/ (this file is out/cli/main/web/web-host.js). */
export const RENDERER_DIR = fileURLToPath(new URL('../../../renderer/', import.meta.url));

export interface WebHostOptions {
  home: string;
  host: string;
  /** 0: any free port. */
  port: number;
  token?: string;
  rendererDir?: string;
}

export interface WebHost {
  /** The URL to open, with the token: `http://127.0.0.1:PORT/?token=…`. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken();
  const root = rendererRoot(options.rendererDir ?? RENDERER_DIR);
  let port = options.port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const sockets = new Set<WebSocket>();

  const authorized = (req: IncomingMessage): boolean => {
    const t = cookieToken(req, port);
    return t !== null && sameToken(t, token);
  };

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = securityHeaders(`ws://${req.headers.host ?? `${hostForUrl}:${port}`}`);
    const plain = (status: number, text: string, extra: Record<string, string> = {}): void => {
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
      res.end(text + '\n');
    };
    if (!hostAllowed(req.headers.host, options.host, port)) return plain(421, 'wrong host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'method not allowed', { Allow: 'GET, HEAD' });
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!sameToken(given, token)) return plain(401, 'not authorized: this link is not valid (run `mori ui` for a fresh one)');
      // The token leaves the address bar (and history) at once; the cookie carries it from now on.
      res.writeHead(302, { ...headers, 'Set-Cookie': cookieHeader(port, token), Location: '/' });
      res.end();
      return;
    }
    if (!authorized(req)) return plain(401, 'not authorized: open the link `mori ui` printed');
    serveStatic(root, url.pathname, res, headers);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: IPC_MAX_LINE_CHARS });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number, text: string): void => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const path = new URL(req.url ?? '/', 'http://host.invalid').pathname;
    if (path !== API_PATH) return refuse(404, 'Not Found');
    if (!hostAllowed(req.headers.host, options.host, port)) return refuse(421, 'Misdirected Request');
    if (!originAllowed(req)) return refuse(403, 'Forbidden');
    if (!authorized(req)) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      bridge(ws, options.home).catch((err: unknown) => ws.close(1011, `bridge failed: ${(err as Error).message ?? String(err)}`.slice(0, 120)));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : options.port;
  return {
    url: `http://${hostForUrl}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One page's WebSocket ↔ its own daemon connection: requests in, replies and streams out, verbatim. */
async function bridge(ws: WebSocket, home: string): Promise<void> {
  const pendingFromPage: string[] = [];
  let daemon: ControlClient | null = null;
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.close(1003, 'text messages only');
    const text = data.toString();
    let line: string;
    try {
      // Re-serialised: one request per line, whatever whitespace the page sent.
      const parsed = IpcRequestEnvelope.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'invalid');
      line = JSON.stringify(parsed.data);
    } catch (err) {
      ws.send(JSON.stringify({ kind: 'reply', id: 0, ok: false, code: 'usage', message: `bad request: ${(err as Error).message}` }));
      return;
    }
    if (daemon) daemon.sendRaw(line);
    else pendingFromPage.push(line);
  });
  ws.on('close', () => daemon?.close());
  ws.on('error', () => undefined);

  const connected = await ControlClient.connect(home, { client: 'web host' });
  if (!connected.ok) {
    ws.close(1011, connected.message.slice(0, 120));
    return;
  }
  daemon = connected.value;
  if (ws.readyState !== ws.OPEN) return daemon.close();
  daemon.onRaw((m) => {
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
