// `mori ui` as a real process: it starts the daemon, prints its URL first; without the token or its
// cookie every route is 401; the token sets an HttpOnly SameSite=Strict cookie and redirects to /,
// which is served with a strict CSP; the WebSocket at /api is refused without the cookie and with a
// foreign Origin; the control API works over it (list, attach with input and output) through
// common/mori-api.ts; a SIGKILLed daemon's WebSocket clients reconnect and re-subscribe once
// `mori up --daemon` brings it back.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createWebSocketApi, type ConnectionState, type MoriApi } from '../../common/mori-api.js';
import type { DaemonEvent, SessionInfo } from '../../common/ipc.js';
import { daemonAnswering } from '../../main/cli/daemon.js';
import { wsOpener } from '../helpers/daemon.js';
import { MORI_BIN } from '../helpers/mori-cli.js';
import { UpHarness } from '../helpers/mori-up.js';
import { until } from '../helpers/until.js';

let h: UpHarness;
let ui: ChildProcess;
let url: URL;
let origin: string;

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
  expect(url.searchParams.get('token')?.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
  expect(err).toMatch(/started a daemon/);
}, 60_000);
afterAll(() => {
  ui?.kill('SIGTERM');
  h.cleanup();
});

async function cookie(): Promise<string> {
  const r = await fetch(url, { redirect: 'manual' });
  return (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
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
  it('answers 401 without the token or its cookie, and turns the token into a strict cookie', async () => {
    for (const p of ['/', '/index.html', '/api', '/anything']) expect((await fetch(`${origin}${p}`)).status, p).toBe(401);
    expect((await fetch(`${origin}/?token=wrong`)).status).toBe(401);
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/');
    const set = first.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    const page = await fetch(`${origin}/`, { headers: { cookie: await cookie() } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*script-src 'self'.*frame-ancestors 'none'/);
    expect(await page.text()).toMatch(/Mori/);
  });

  it('refuses a request naming another host (DNS rebinding), even with the cookie', async () => {
    const c = await cookie();
    const status = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port: url.port, path: '/', headers: { host, cookie: c } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
    expect(await status(`evil.example:${url.port}`)).toBe(421);
    expect(await status(`localhost:${url.port}`)).toBe(200);
  });

  it('refuses the WebSocket without the cookie and with a foreign Origin', async () => {
    const c = await cookie();
    expect(await upgradeStatus({ origin })).toBe(401);
    expect(await upgradeStatus({ origin: 'http://evil.example', cookie: c })).toBe(403);
    expect(await upgradeStatus({ cookie: c })).toBe(403);
    expect(await upgradeStatus({ origin, cookie: c })).toBe(101);
  });

  it('speaks the control API over the WebSocket: list, and attach with input and output', async () => {
    const api = createWebSocketApi({ url: `ws://${url.host}/api`, open: wsOpener({ origin, cookie: await cookie() }) });
    try {
      await until('the session to run', () => /SESSION STARTED/.test(h.workLog('web')));
      const list = await api.call('list', {});
      expect(list.ok && list.value.map((s: SessionInfo) => s.name)).toEqual(['web']);
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
    const api: MoriApi = createWebSocketApi({ url: `ws://${url.host}/api`, open: wsOpener({ origin, cookie: await cookie() }), reconnectMs: 100 });
    api.onConnection((s) => states.push(s));
    api.onEvent((e) => events.push(e));
    try {
      expect((await api.call('list', {})).ok).toBe(true);
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
