// The `allowlist` network mode's proxy (DESIGN.md §11 "Sandbox"): an HTTP forward proxy on Node's own
// http server, which parses every request line and header; this file only decides and pipes. CONNECT
// (https, and any TLS an agent tunnels) opens a TCP connection to an allowed host:port and pipes both
// ways; a plain request with an absolute `http://` URL is forwarded with its hop-by-hop headers
// dropped. Anything else is answered 403 (a host not allowed) or 400 (not a proxy request), with a
// short body naming the host. Runs in the session's proxy process (net-proxy-main.ts).
import http from 'node:http';
import net from 'node:net';
import { hostAllowed, hostWord, splitHostPort, type HostPattern } from './host-allowlist.js';

/** The standard ports a pattern without `:port` stands for. */
const HTTPS_PORT = 443;
const HTTP_PORT = 80;
/** Headers of one hop only (RFC 9110 §7.6.1), never forwarded; those a Connection header names are dropped too. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export type ProxyLog = (line: string) => void;

/** A server that passes only what `patterns` allow; listen on it as on any http.Server. */
export function createNetProxy(patterns: readonly HostPattern[], log: ProxyLog = () => {}): http.Server {
  const server = http.createServer((req, res) => forward(patterns, req, res, log));
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => tunnel(patterns, req, socket, head, log));
  // A client that resets mid-request is its own business; the server carries on.
  server.on('clientError', (_err, socket) => socket.destroy());
  return server;
}

function refusal(status: 400 | 403 | 502, text: string): { status: number; body: string } {
  return { status, body: `Mori sandbox: ${text}\n` };
}

function tunnel(patterns: readonly HostPattern[], req: http.IncomingMessage, socket: net.Socket, head: Buffer, log: ProxyLog): void {
  socket.on('error', () => socket.destroy());
  const target = splitHostPort(req.url ?? '');
  const port = target?.port ?? HTTPS_PORT;
  if (target === null) return refuseSocket(socket, refusal(400, `"${req.url ?? ''}" is not a host:port to CONNECT to`));
  if (!hostAllowed(patterns, target.host, port, HTTPS_PORT)) {
    log(`refused CONNECT ${hostWord(target.host)}:${port}`);
    return refuseSocket(socket, refusal(403, `${hostWord(target.host)}:${port} is not an allowed host of this session`));
  }
  const upstream = net.connect({ host: target.host, port });
  let open = false;
  upstream.once('connect', () => {
    open = true;
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    // Bytes the client sent right behind the CONNECT line (a TLS hello) belong to the tunnel.
    if (head.length > 0) upstream.write(head);
    socket.pipe(upstream);
    upstream.pipe(socket);
  });
  upstream.on('error', (err) => {
    if (open) return socket.destroy();
    refuseSocket(socket, refusal(502, `${hostWord(target.host)}:${port} could not be reached (${err.message})`));
  });
  upstream.on('close', () => socket.destroy());
  socket.on('close', () => upstream.destroy());
}

/** A response written on a CONNECT's raw socket (Node hands no ServerResponse there), then closed. */
function refuseSocket(socket: net.Socket, r: { status: number; body: string }): void {
  const reason = http.STATUS_CODES[r.status] ?? '';
  socket.end(`HTTP/1.1 ${r.status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(r.body)}\r\nConnection: close\r\n\r\n${r.body}`);
}

function forward(patterns: readonly HostPattern[], req: http.IncomingMessage, res: http.ServerResponse, log: ProxyLog): void {
  const answer = (r: { status: number; body: string }): void => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(r.status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' }).end(r.body);
  };
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    return answer(refusal(400, `"${req.url ?? ''}" is not an absolute http:// URL (use CONNECT for https)`));
  }
  const target = url.protocol === 'http:' ? splitHostPort(url.host) : null;
  if (target === null) return answer(refusal(400, `"${url.protocol}//${url.host}" is not an http:// host (use CONNECT for https)`));
  const port = target.port ?? HTTP_PORT;
  if (!hostAllowed(patterns, target.host, port, HTTP_PORT)) {
    log(`refused ${req.method ?? 'GET'} ${hostWord(target.host)}:${port}`);
    return answer(refusal(403, `${hostWord(target.host)}:${port} is not an allowed host of this session`));
  }
  const upstream = http.request({ host: target.host, port, method: req.method, path: `${url.pathname}${url.search}`, headers: endToEnd(req.headers) }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.headers));
    up.pipe(res);
  });
  upstream.on('error', (err) => answer(refusal(502, `${hostWord(target.host)}:${port} could not be reached (${err.message})`)));
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** The headers without those of one hop. */
function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = String(headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim());
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.includes(k)) out[k] = v;
  return out;
}
