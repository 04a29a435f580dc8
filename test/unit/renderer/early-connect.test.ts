// What a `mori ui` page starts before its API's chunk loads (renderer/early-connect.ts), against a
// real HTTP and WebSocket server on loopback, with the `ws` package standing in for the browser's
// WebSocket: the socket is handed over once, to its own URL only, says it is open to the transport
// that takes it after it opened, and one older than EARLY_SOCKET_MAX_AGE_MS is closed, not handed
// over (the web host would soon close it for want of a secret, with the code that ends reconnecting).
// The link's token leaves the address bar at once; the secret is kept as soon as the web host
// answers, so a reload before the API has loaded finds it; what is not a secret is never kept.
import http from 'node:http';
import type net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { connectEarly, EARLY_SOCKET_MAX_AGE_MS } from '../../../renderer/early-connect.js';
import { SECRET_STORAGE_KEY } from '../../../common/web-session-names.js';
import { until } from '../../../testkit/until.js';

let server: http.Server;
let wss: WebSocketServer;
let origin = '';
/** What /session answers next: its status and body. */
let answer = { status: 200, body: '' };
const serverSockets: { closed: boolean }[] = [];
const replaced: string[] = [];
const storage = new Map<string, string>();

const page = (hash: string): void => {
  const g = globalThis as Record<string, unknown>;
  g['location'] = new URL(`${origin}/${hash}`);
  g['history'] = { replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) };
  g['sessionStorage'] = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v), removeItem: (k: string) => storage.delete(k) };
  g['WebSocket'] = BrowserLikeWebSocket;
  // A page's fetch resolves its path against the page's address; Node's needs it whole.
  g['fetch'] = (url: string, init: RequestInit) => realFetch(new URL(url, origin), init);
};
const realFetch = globalThis.fetch;

/**
 * `ws` as a browser's WebSocket: a browser reports a socket closed while still connecting as an
 * event nobody need listen to, where `ws` throws its 'error' when no listener takes it.
 */
class BrowserLikeWebSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    this.on('error', () => undefined);
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  wss = new WebSocketServer({ server, path: '/api' });
  wss.on('connection', (ws) => {
    const seen = { closed: false };
    serverSockets.push(seen);
    ws.on('close', () => (seen.closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  (globalThis as Record<string, unknown>)['fetch'] = realFetch;
  wss.close();
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  storage.clear();
  replaced.length = 0;
});

describe("a page's early connection", () => {
  it('hands its socket over once, to its own URL, and says it is open to a taker that came after it opened', async () => {
    page('');
    const before = serverSockets.length;
    const early = connectEarly();
    expect(early.exchange).toBeNull();
    await until('the early socket to open', () => serverSockets.length === before + 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(early.takeSocket(`ws://${new URL(origin).host}/api?host=box`)).toBeNull();
    const like = early.takeSocket(`ws://${new URL(origin).host}/api`);
    expect(like).not.toBeNull();
    let opened = 0;
    if (like) like.onopen = () => opened++;
    await until('the transport to hear it is open', () => opened === 1);
    expect(early.takeSocket(`ws://${new URL(origin).host}/api`)).toBeNull();
    like?.close();
    await until('the socket to close', () => serverSockets[before]?.closed === true);
  });

  it('closes a socket older than EARLY_SOCKET_MAX_AGE_MS instead of handing it over', async () => {
    page('');
    let now = 1_000;
    const before = serverSockets.length;
    const early = connectEarly(() => now);
    await until('the early socket to open', () => serverSockets.length === before + 1);
    now += EARLY_SOCKET_MAX_AGE_MS + 1;
    expect(early.takeSocket(`ws://${new URL(origin).host}/api`)).toBeNull();
    await until('the old socket to be closed', () => serverSockets[before]?.closed === true);
  });

  it("takes the token out of the address at once and keeps the secret as soon as the web host answers", async () => {
    const secret = 's'.repeat(43);
    answer = { status: 200, body: JSON.stringify({ secret, requestTimeoutMs: 2_000 }) };
    page('#token=abc');
    const early = connectEarly();
    expect(replaced).toEqual(['/']);
    const got = await early.exchange;
    expect(got).toEqual({ reply: { secret, requestTimeoutMs: 2_000 } });
    expect(storage.get(SECRET_STORAGE_KEY)).toBe(secret);
    early.takeSocket(`ws://${new URL(origin).host}/api`)?.close();
  });

  it('keeps nothing that is not a secret, and says a refusal in the host\'s words', async () => {
    for (const body of [JSON.stringify({ secret: 'x'.repeat(257) }), JSON.stringify({ secret: 42 }), JSON.stringify({ secret: '' }), '"just a string"', 'null']) {
      answer = { status: 200, body };
      page('#token=abc');
      const early = connectEarly();
      expect(await early.exchange).toEqual({ reply: JSON.parse(body) as unknown });
      expect(storage.has(SECRET_STORAGE_KEY), body).toBe(false);
      early.takeSocket(`ws://${new URL(origin).host}/api`)?.close();
    }
    answer = { status: 401, body: 'this link was used already' };
    page('#token=abc');
    const early = connectEarly();
    expect(await early.exchange).toEqual({ refused: 'this link was used already' });
    expect(storage.has(SECRET_STORAGE_KEY)).toBe(false);
    early.takeSocket(`ws://${new URL(origin).host}/api`)?.close();
  });
});
