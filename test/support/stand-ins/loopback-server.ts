// A loopback HTTP server for API stand-ins: logs every request (method, path, JSON body), answers
// through a handler, and can be taken down (the port refuses connections, as when the network is
// gone), made to reset every connection, or to fail (HTTP 500), and brought back on the same port. Also answers the proxy
// CONNECT an agent makes for anything it fetches from elsewhere (refused), so nothing leaves loopback.
// Used by the real-CLI tests only.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoggedRequest {
  at: number;
  method: string;
  path: string;
  body: unknown;
}

/**
 * `up`: answer; `down`: nothing listens (connection refused: the API is unreachable); `reset`:
 * every connection is accepted and reset; `error`: HTTP 500.
 */
export type StandInMode = 'up' | 'down' | 'reset' | 'error';

export type Handler = (req: LoggedRequest, res: http.ServerResponse) => void;

export interface StandIn {
  port: number;
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: LoggedRequest[];
  /** CONNECT targets the agent tried to reach through the proxy (each refused). */
  proxied: string[];
  /** Requests refused while down or failed while in error. */
  refused: number;
  /** Resolves once the port listens again (`up`, `reset`, `error`) or has stopped listening (`down`). */
  setMode(mode: StandInMode): Promise<void>;
  close(): Promise<void>;
}

export async function startStandIn(handler: Handler, wantedPort = 0): Promise<StandIn> {
  let mode: StandInMode = 'up';
  const sockets = new Set<Socket>();
  const state = { requests: [] as LoggedRequest[], proxied: [] as string[], refused: 0 };
  const server = http.createServer((req, res) => {
    if (mode === 'reset') {
      state.refused++;
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON: logged as text
      }
      const logged: LoggedRequest = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', body };
      if (mode === 'error') {
        state.refused++;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'stand-in: internal error', code: 500 } }));
        return;
      }
      state.requests.push(logged);
      handler(logged, res);
    });
  });
  server.on('connection', (s) => {
    if (mode === 'reset') {
      state.refused++;
      s.destroy();
      return;
    }
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, socket) => {
    state.proxied.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  const listen = (port: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) resolve();
      else server.close(() => resolve());
    });
  await listen(wantedPort);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get proxied() {
      return state.proxied;
    },
    get refused() {
      return state.refused;
    },
    async setMode(next) {
      mode = next;
      if (next === 'down') await stop();
      else if (!server.listening) await listen(port); // the same port: the agent's config names it
    },
    close: stop,
  };
}

/** The text of every string anywhere in a request body: what a test searches for earlier turns. */
export function bodyText(body: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(body);
  return out.join('\n');
}
