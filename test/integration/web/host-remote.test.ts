// The window's API for a session on another host (DESIGN.md §12): a real `mori ui` whose WebSocket at
// `/api?host=box` is bridged over a real OpenSSH server on loopback (testkit/sshd.ts) to that
// host's `mori bridge` and daemon (a second Mori home with a fake agent). Through it the page lists
// the remote's sessions, edits a state file there, reads its checks, attaches its terminal and types
// into it; an approval is refused there (the bridge takes none); a name remotes.json does not hold is
// closed with why; this host's own /api is unchanged beside it. The page learns the remotes' names at
// /remotes with its secret.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../../common/ipc.js';
import { WS_UNAUTHORIZED } from '../../../common/web-session.js';
import { MORI_BIN, moriIn, tempDir } from '../../../testkit/mori-cli.js';
import { UpHarness } from '../../support/mori-up.js';
import { shq, SKIP_REASON, SKIP_WITHOUT_SSHD, SshServer } from '../../../testkit/sshd.js';
import { until, untilValue } from '../../../testkit/until.js';

if (SKIP_WITHOUT_SSHD) console.warn(SKIP_REASON);

interface Page {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: { code: number; reason: string } | null;
}

describe.skipIf(SKIP_WITHOUT_SSHD)('the window API for a session on another host', () => {
  let sshd: SshServer;
  let remote: UpHarness;
  let local: string;
  let ui: ChildProcess;
  let origin = '';
  let secret = '';
  let uiErr = '';
  const pages: Page[] = [];

  const record = (): string => (existsSync(remote.record) ? readFileSync(remote.record, 'utf8') : '');

  /** An authenticated WebSocket to `/api` (with `?host=` when given), collecting what it receives. */
  function open(host: string | null): Promise<Page> {
    return new Promise((resolve, reject) => {
      const page: Page = { ws: new WebSocket(`${origin.replace('http', 'ws')}/api${host !== null ? `?host=${host}` : ''}`, { headers: { origin } }), messages: [], closed: null };
      pages.push(page);
      page.ws.on('message', (d) => page.messages.push(JSON.parse(d.toString()) as Record<string, unknown>));
      page.ws.on('close', (code, reason) => (page.closed = { code, reason: reason.toString() }));
      page.ws.on('open', () => {
        page.ws.send(JSON.stringify({ kind: 'auth', secret }));
        resolve(page);
      });
      page.ws.on('error', reject);
    });
  }

  let nextId = 1;
  /** Sends a request and waits for its reply (a remote login can take seconds on a loaded runner). */
  async function call(page: Page, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = nextId++;
    page.ws.send(JSON.stringify({ id, method, params }));
    return untilValue(
      `the reply to ${method}`,
      () => page.messages.find((m) => m['kind'] === 'reply' && m['id'] === id),
      (m) => m !== undefined,
      60_000,
      () => `${JSON.stringify(page.closed)} ${uiErr}`,
    ) as Promise<Record<string, unknown>>;
  }

  beforeAll(async () => {
    sshd = new SshServer();
    await sshd.start();
    remote = new UpHarness('web-remote');
    remote.init('work', 'direct');
    local = path.join(tempDir('web-local'), 'home');
    const env = { ...remote.env, MORI_HOME: remote.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    const bridgeCommand = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v ?? ''}`)), shq(process.execPath), shq(MORI_BIN), 'bridge'].join(' ');
    const add = moriIn(local, ['remote', 'add', 'box', sshd.destination, ...sshd.optionFlags(), '--remote-command', bridgeCommand]);
    expect(add.code, add.err).toBe(0);
    ui = spawn(process.execPath, [MORI_BIN, 'ui', '--json', '--no-open'], { env: { ...process.env, MORI_HOME: local }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    ui.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    ui.stderr?.on('data', (d: Buffer) => (uiErr += d.toString()));
    await until('the link of mori ui', () => out.includes('\n'), () => uiErr, 60_000);
    const url = new URL((JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url);
    origin = url.origin;
    const r = await fetch(`${origin}/session`, { method: 'POST', headers: { origin }, body: new URLSearchParams(url.hash.slice(1)).get('token') ?? '' });
    secret = ((await r.json()) as { secret: string }).secret;
  }, 90_000);

  afterAll(() => {
    for (const p of pages) p.ws.terminate();
    ui?.kill('SIGTERM');
    spawnSync(process.execPath, [MORI_BIN, 'down'], { env: { ...process.env, MORI_HOME: local }, stdio: 'ignore', timeout: 20_000 });
    remote?.cleanup();
    const shared = local ? path.join(local, 'ssh') : '';
    if (shared && existsSync(shared)) for (const f of readdirSync(shared)) spawnSync('ssh', ['-o', `ControlPath=${path.join(shared, f)}`, '-O', 'exit', 'shared'], { stdio: 'ignore', timeout: 10_000 });
    sshd?.stop();
  });

  it("lists the remote's sessions, edits its state file there and reads its checks; an approval is refused there", { timeout: 120_000 }, async () => {
    const page = await open('box');
    expect(await call(page, 'hello', { protocol: PROTOCOL_VERSION, client: 'test page' })).toMatchObject({ ok: true, value: { protocol: PROTOCOL_VERSION, home: remote.home } });
    const running = await untilValue(
      'the remote session running',
      async () => ((await call(page, 'list', {}))['value'] as { name: string; state: string }[] | undefined) ?? [],
      (sessions) => sessions.some((s) => s.name === 'work' && s.state === 'running'),
      60_000,
      (sessions) => JSON.stringify(sessions),
    );
    expect(running.map((s) => s.name)).toEqual(['work']);

    const read = await call(page, 'state.read', { session: 'work', file: 'session_state.md' });
    expect(read).toMatchObject({ ok: true });
    const { text, version } = read['value'] as { text: string; version: string };
    const edited = `${text}\n- Edited from the window on another host\n`;
    expect(await call(page, 'state.write', { session: 'work', file: 'session_state.md', text: edited, baseVersion: version })).toMatchObject({ ok: true, value: { outcome: 'written' } });
    expect(readFileSync(path.join(remote.stateDir('work'), 'session_state.md'), 'utf8')).toBe(edited);

    const checks = await call(page, 'checks.list', { session: 'work' });
    expect(checks).toMatchObject({ ok: true, value: { trust: { hash: expect.any(String) } } });
    const hash = (checks['value'] as { trust: { hash: string } }).trust.hash;
    expect(await call(page, 'checks.trust', { session: 'work', hash })).toMatchObject({ ok: false, code: 'forbidden' });
    // The page's connection is still there after the refusal.
    expect(await call(page, 'list', {})).toMatchObject({ ok: true });
  });

  it("attaches the remote session's terminal: its screen comes, and typing reaches the agent there", { timeout: 120_000 }, async () => {
    const page = await open('box');
    expect(await call(page, 'hello', { protocol: PROTOCOL_VERSION })).toMatchObject({ ok: true });
    await until('the remote agent to wait for input', () => record().includes('"event":"start"'), record, 60_000);
    expect(await call(page, 'attach', { session: 'work', cols: 100, rows: 30 })).toMatchObject({ ok: true, value: { name: 'work' } });
    await until('the snapshot of its screen', () => page.messages.some((m) => m['kind'] === 'frame' && (m['frame'] as { kind: string }).kind === 'snapshot'));
    page.ws.send(JSON.stringify({ id: nextId++, method: 'input', params: { data: 'print:through-the-window\r' } }));
    await until('the typed line to reach the remote agent', () => record().includes('"line":"print:through-the-window"'), record);
    await until('its output back as a frame', () => page.messages.some((m) => m['kind'] === 'frame' && JSON.stringify(m).includes('through-the-window')));
  });

  it('names the remotes to a page that gives its secret, from its own origin, by POST only', async () => {
    const remotes = (init: RequestInit) => fetch(`${origin}/remotes`, init);
    const listed = await remotes({ method: 'POST', headers: { origin }, body: secret });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ remotes: [{ name: 'box' }] });
    expect((await remotes({ method: 'POST', headers: { origin }, body: 'not-the-secret' })).status).toBe(401);
    expect((await remotes({ method: 'POST', headers: { origin: 'http://evil.example' }, body: secret })).status).toBe(403);
    expect((await remotes({ method: 'GET', headers: { origin } })).status).toBe(405);
  });

  it('asks the same of a WebSocket to a remote as of its own: no secret, no relay; a foreign origin, no socket', { timeout: 60_000 }, async () => {
    for (const first of [JSON.stringify({ kind: 'auth', secret: 'x'.repeat(43) }), JSON.stringify({ id: 1, method: 'list', params: {} }), 'not json']) {
      const got = await new Promise<{ code: number; reason: string; messages: string[] }>((resolve, reject) => {
        const messages: string[] = [];
        const ws = new WebSocket(`${origin.replace('http', 'ws')}/api?host=box`, { headers: { origin } });
        ws.on('open', () => ws.send(first));
        ws.on('message', (d) => messages.push(d.toString()));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), messages }));
        ws.on('error', reject);
      });
      expect(got.code, first).toBe(WS_UNAUTHORIZED);
      expect(got.messages).toEqual([]);
    }
    const foreign = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/api?host=box`, { headers: { origin: 'http://evil.example' } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(foreign).toBe(403);
  });

  it('closes a WebSocket for a host remotes.json does not hold, saying so, and serves this host beside it', { timeout: 60_000 }, async () => {
    const nope = await open('nope');
    await until('the unknown host closed', () => nope.closed !== null);
    expect(nope.closed).toMatchObject({ code: 1011, reason: expect.stringContaining('no remote "nope"') });
    const here = await open(null);
    expect(await call(here, 'hello', { protocol: PROTOCOL_VERSION })).toMatchObject({ ok: true, value: { home: local } });
  });
});
