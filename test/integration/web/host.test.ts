// `mori ui` as a real process: it starts the daemon, prints its link (the token in the fragment)
// first; the page is served with a strict CSP and no credential; the token is exchanged once, from
// this host's own origin only, for a session secret, and no response sets a cookie; the WebSocket at
// /api is refused with a foreign Origin and closed unless its first message carries the secret; the
// control API works over it (list, attach with input and output) through common/mori-api.ts; a
// SIGKILLed daemon's WebSocket clients reconnect and re-subscribe once `mori up --daemon` brings it
// back.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createWebSocketApi, type ConnectionState, type MoriApi } from '../../../common/mori-api.js';
import { PROTOCOL_VERSION, type DaemonEvent, type LiveSession } from '../../../common/ipc.js';
import { WS_UNAUTHORIZED } from '../../../common/web-session.js';
import { daemonAnswering } from '../../../main/daemon-client/daemon-process.js';
import { wsOpener } from '../../support/daemon.js';
import { MORI_BIN, REPO } from '../../../testkit/mori-cli.js';
import { UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness;
let ui: ChildProcess;
let url: URL;
let origin: string;
let token: string;
let secret: string;

beforeAll(async () => {
  h = new UpHarness('web');
  const init = h.mori('init', h.project, '--name', 'web', '--agent', 'shell', '--command', 'cat', '--backend', 'direct');
  expect(init.code, init.stderr).toBe(0);
  ui = spawn(process.execPath, [MORI_BIN, 'ui', '--no-open', '--json'], { cwd: h.project, env: { ...process.env, MORI_HOME: h.home, ...h.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  ui.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  ui.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await until('the URL', () => out.includes('\n'), () => err);
  url = new URL((JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url);
  origin = url.origin;
  expect(url.hostname).toBe('127.0.0.1');
  expect(url.search).toBe('');
  token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
  // Said on stderr, a pipe of its own: it may come a moment after the URL on stdout.
  await until('mori ui to say it started a daemon', () => /started a daemon/.test(err), () => err);
}, 60_000);
afterAll(() => {
  ui?.kill('SIGTERM');
  h.cleanup();
});

/** The page's exchange of the link's token, as the browser sends it (POST from this host's own origin). */
function exchange(body: string, headers: Record<string, string> = { origin }): Promise<Response> {
  return fetch(`${origin}/session`, { method: 'POST', headers, body });
}

/** A WebSocket to /api from this host's origin that sends `first` first: how it ends (close code and reason). */
function firstMessage(first: string): Promise<{ code: number; reason: string; replies: string[] }> {
  return new Promise((resolve) => {
    const replies: string[] = [];
    const ws = new WebSocket(`ws://${url.host}/api`, { headers: { origin } });
    ws.on('open', () => {
      ws.send(first);
      ws.send(JSON.stringify({ id: 1, method: 'list', params: {} }));
    });
    ws.on('message', (d) => replies.push(d.toString()));
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), replies }));
  });
}

/** The HTTP status a WebSocket upgrade to /api gets with these headers (101 when accepted). */
function upgradeStatus(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://${url.host}/api`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

describe('mori ui', () => {
  it('serves the page with a strict CSP and no credential; trades the token once, from its own origin only, for a secret; sets no cookie', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*script-src 'self'.*frame-ancestors 'none'/);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(await page.text()).toMatch(/Mori/);
    expect((await fetch(`${origin}/session`)).status).toBe(405);
    expect((await exchange(token, {})).status).toBe(403);
    expect((await exchange(token, { origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await exchange('wrong')).status).toBe(401);
    const first = await exchange(token);
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
    secret = ((await first.json()) as { secret: string }).secret;
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(secret).not.toBe(token);
    const again = await exchange(token);
    expect(again.status).toBe(401);
    expect(await again.text()).toMatch(/already used/);
  });

  it("serves the page with the API's chunk fetched alongside the entry; the page as built, which the app reads, never loads it", async () => {
    const html = await (await fetch(`${origin}/`)).text();
    const href = /<link rel="modulepreload" crossorigin href="\.\/(assets\/api-[\w-]+\.js)">/.exec(html)?.[1];
    expect(href, 'the page preloads the API chunk').toBeDefined();
    const chunk = await fetch(`${origin}/${href}`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('content-type')).toMatch(/javascript/);
    expect(await chunk.text()).toContain('WebSocket');
    const built = readFileSync(path.join(REPO, 'out', 'renderer', 'index.html'), 'utf8');
    expect(built).not.toContain('modulepreload');
    expect(built).toContain(`<!-- mori:browser-api ./${href} -->`);
  });

  it('refuses a request naming another host (DNS rebinding)', async () => {
    const status = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port: url.port, path: '/', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
    expect(await status(`evil.example:${url.port}`)).toBe(421);
    expect(await status(`localhost:${url.port}`)).toBe(200);
  });

  it('refuses the WebSocket with a foreign Origin, and closes it unless its first message carries the secret', async () => {
    expect(await upgradeStatus({ origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus({})).toBe(403);
    expect(await upgradeStatus({ origin })).toBe(101);
    for (const first of [JSON.stringify({ id: 0, method: 'hello', params: {} }), JSON.stringify({ kind: 'auth', secret: token }), JSON.stringify({ kind: 'auth', secret: 'x'.repeat(43) }), 'not json']) {
      const r = await firstMessage(first);
      expect(r.code, first).toBe(WS_UNAUTHORIZED);
      expect(r.reason).toMatch(/not authorized/);
      expect(r.replies).toEqual([]);
    }
    const good = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://${url.host}/api`, { headers: { origin } });
      ws.on('open', () => {
        ws.send(JSON.stringify({ kind: 'auth', secret }));
        ws.send(JSON.stringify({ id: 1, method: 'hello', params: { protocol: PROTOCOL_VERSION, client: 'test' } }));
      });
      ws.on('message', (d) => {
        resolve(d.toString());
        ws.close();
      });
    });
    expect(JSON.parse(good)).toMatchObject({ kind: 'reply', id: 1, ok: true });
  });

  it('speaks the control API over the WebSocket: list, and attach with input and output', async () => {
    const api = createWebSocketApi({ url: `ws://${url.host}/api`, open: wsOpener({ origin }), secret: async () => secret });
    try {
      await until('the session to run', () => /SESSION STARTED/.test(h.workLog('web')));
      const list = await api.call('list', {});
      expect(list.ok && list.value.map((s: LiveSession) => s.name)).toEqual(['web']);
      let screen = '';
      let ended = '';
      const attached = await api.attach('web', { cols: 80, rows: 24 }, { snapshot: (d) => (screen += d), output: (d) => (screen += d), ended: (r) => (ended = r) });
      expect(attached.ok).toBe(true);
      if (!attached.ok) return;
      attached.value.input('hello-through-the-web\r');
      await until('the echo', () => screen.includes('hello-through-the-web'), () => JSON.stringify(screen));
      attached.value.detach();
      expect(ended).toBe('detached');
    } finally {
      api.close();
    }
  });

  it("a SIGKILLed daemon's clients notice, reconnect once mori up --daemon brings it back, and re-subscribe", { timeout: 90_000 }, async () => {
    const states: ConnectionState[] = [];
    const events: DaemonEvent[] = [];
    const api: MoriApi = createWebSocketApi({ url: `ws://${url.host}/api`, open: wsOpener({ origin }), secret: async () => secret, reconnectMs: 100 });
    api.onConnection((s) => states.push(s));
    api.onEvent((e) => events.push(e));
    try {
      expect((await api.call('list', {})).ok).toBe(true);
      // A listener that comes once the connection is open (the window's store does) is told so at once.
      const late: ConnectionState[] = [];
      api.onConnection((s) => late.push(s));
      expect(late).toEqual(['open']);
      const before = await daemonAnswering(h.home);
      expect(before).not.toBeNull();
      process.kill(before?.pid ?? 0, 'SIGKILL');
      await until('the client to notice', () => states.includes('closed'));
      const up = h.mori('up', '--daemon');
      expect(up.code, up.stderr).toBe(0);
      await until('the client to reconnect', () => states.lastIndexOf('open') > states.indexOf('closed'), () => states.join(','));
      const appended = await api.call('log.append', { session: 'web', text: 'after the restart' });
      expect(appended.ok).toBe(true);
      await until('the event through the new subscription', () => events.some((e) => e.type === 'log.appended' && e.name === 'web'));
    } finally {
      api.close();
    }
  });
});
