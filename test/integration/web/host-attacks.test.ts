// Hostile local clients against a real `mori ui`: 40 upgrades with a foreign Origin each reset by the
// client right after sending, garbage, a half-sent request and an oversized header leave the process
// alive and serving; WebSockets are bounded (a further upgrade gets 503) and so are verifications per
// WebSocket (a second one of the same session answers `conflict` while the first runs, and the daemon
// runs one); the browser is opened on a 0600 redirect file, so no argv carries the token, and the file
// goes once the token is spent; a --host off loopback is refused unless the person accepts plain
// HTTP on the network.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../../common/ipc.js';
import { MAX_WEB_SOCKETS } from '../../../main/web/web-host.js';
import { client } from '../../support/daemon.js';
import { MORI_BIN } from '../../../testkit/mori-cli.js';
import { UpHarness, until } from '../../support/mori-up.js';
import { untilValue } from '../../../testkit/until.js';

interface Ui {
  child: ChildProcess;
  url: URL;
  token: string;
  err: () => string;
}

let h: UpHarness;
const uis: ChildProcess[] = [];

/** A real `mori ui` with these arguments and environment, once it printed its link. */
async function startUi(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ui> {
  const child = spawn(process.execPath, [MORI_BIN, 'ui', '--json', ...args], { cwd: h.project, env: { ...process.env, MORI_HOME: h.home, ...h.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  uis.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await until('the link of mori ui', () => out.includes('\n'), () => err);
  const url = new URL((JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url);
  return { child, url, token: new URLSearchParams(url.hash.slice(1)).get('token') ?? '', err: () => err };
}

const alive = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;

async function secretFor(ui: Ui): Promise<string> {
  const r = await fetch(`${ui.url.origin}/session`, { method: 'POST', headers: { origin: ui.url.origin }, body: ui.token });
  expect(r.status).toBe(200);
  return ((await r.json()) as { secret: string }).secret;
}

/** A raw TCP connection to the host that writes `data`, then (unless `keep`) resets the connection at once. */
function raw(ui: Ui, data: string, keep = false): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.connect(Number(ui.url.port), '127.0.0.1', () => {
      s.write(data, () => {
        if (!keep) s.resetAndDestroy();
        resolve(s);
      });
    });
    // Refused (the host is gone): the caller's liveness check says so.
    s.on('error', () => resolve(s));
  });
}

/** An authenticated WebSocket: resolves once it is open and the secret sent. */
function authed(ui: Ui, secret: string): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] }> {
  return new Promise((resolve, reject) => {
    const messages: Record<string, unknown>[] = [];
    const ws = new WebSocket(`ws://${ui.url.host}/api`, { headers: { origin: ui.url.origin } });
    ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as Record<string, unknown>));
    ws.on('open', () => {
      ws.send(JSON.stringify({ kind: 'auth', secret }));
      resolve({ ws, messages });
    });
    ws.on('error', reject);
  });
}

/** The status an upgrade from this host's origin gets (101: accepted, and the socket is kept open). */
function upgrade(ui: Ui, kept: WebSocket[]): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://${ui.url.host}/api`, { headers: { origin: ui.url.origin } });
    ws.on('open', () => {
      kept.push(ws);
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

beforeAll(() => {
  h = new UpHarness('web-attacks');
  h.init('web', 'direct');
});
afterAll(() => {
  for (const c of uis) if (alive(c)) c.kill('SIGKILL');
  h.cleanup();
});

/** What the fake opener wrote (its argv), or null until it has written all of it. */
function openerArgv(file: string): string[] | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as string[];
  } catch {
    return null;
  }
}

describe('mori ui against hostile local clients', () => {
  it('survives upgrades reset by the client, garbage, a half-sent request and an oversized header, and still serves its page', { timeout: 60_000 }, async () => {
    const ui = await startUi(['--no-open']);
    const upgradeRequest = `GET /api HTTP/1.1\r\nHost: ${ui.url.host}\r\nOrigin: http://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    for (let i = 0; i < 40; i++) await raw(ui, upgradeRequest);
    // The same, reset while the host may still be writing its refusal: all at once.
    await Promise.all(Array.from({ length: 40 }, () => raw(ui, upgradeRequest)));
    await raw(ui, '\x00\x01\x02 not http at all\r\n\r\n');
    await raw(ui, 'GARBAGE / HTTP/9.9\r\n\r\n', true);
    await raw(ui, `GET / HTTP/1.1\r\nHost: ${ui.url.host}\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    await raw(ui, `GET / HTTP/1.1\r\nHost: ${ui.url.host}\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`, true);
    const half = await raw(ui, `GET / HTTP/1.1\r\nHost: ${ui.url.host}\r\nX-Half: `, true);
    // A moment for every reset to reach the host, then it must still be there.
    await new Promise((r) => setTimeout(r, 500));
    half.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(ui.child), ui.err()).toBe(true);
    const page = await fetch(`${ui.url.origin}/`);
    expect(page.status).toBe(200);
    const { ws, messages } = await authed(ui, await secretFor(ui));
    ws.send(JSON.stringify({ id: 1, method: 'hello', params: { protocol: PROTOCOL_VERSION, client: 'test' } }));
    await until('the hello reply', () => messages.some((m) => m['id'] === 1 && m['ok'] === true), () => JSON.stringify(messages));
    ws.close();
    expect(ui.err()).not.toMatch(/Error|ECONNRESET|EPIPE/);
    ui.child.kill('SIGTERM');
  });

  it(`refuses a WebSocket past ${MAX_WEB_SOCKETS} open ones with 503, and takes one again once one closes`, { timeout: 60_000 }, async () => {
    const ui = await startUi(['--no-open']);
    const kept: WebSocket[] = [];
    try {
      const statuses = await Promise.all(Array.from({ length: MAX_WEB_SOCKETS }, () => upgrade(ui, kept)));
      expect(statuses.every((s) => s === 101)).toBe(true);
      expect(await upgrade(ui, kept)).toBe(503);
      kept.shift()?.close();
      let again = 0;
      for (let i = 0; i < 20 && again !== 101; i++) {
        await new Promise((r) => setTimeout(r, 100));
        again = await upgrade(ui, kept);
      }
      expect(again).toBe(101);
      expect(alive(ui.child)).toBe(true);
    } finally {
      for (const ws of kept) ws.terminate();
      ui.child.kill('SIGTERM');
    }
  });

  it('runs one verification of a session at a time per WebSocket: a second answers conflict, and the daemon runs one', { timeout: 60_000 }, async () => {
    const ui = await startUi(['--no-open']);
    const watcher = await client(h.home, true);
    try {
      const { ws, messages } = await authed(ui, await secretFor(ui));
      ws.send(JSON.stringify({ id: 1, method: 'hello', params: { protocol: PROTOCOL_VERSION, client: 'test' } }));
      for (const id of [2, 3, 4]) ws.send(JSON.stringify({ id, method: 'checks.verify', params: { session: 'web' } }));
      await until('the replies', () => [2, 3, 4].every((id) => messages.some((m) => m['id'] === id)), () => JSON.stringify(messages));
      const reply = (id: number): Record<string, unknown> | undefined => messages.find((m) => m['id'] === id);
      expect(reply(2)).toMatchObject({ ok: true });
      for (const id of [3, 4]) expect(reply(id)).toMatchObject({ ok: false, code: 'conflict', message: expect.stringMatching(/already running/) });
      expect(watcher.events.filter((e) => e.type === 'verify.started')).toHaveLength(1);
      // Once it finished, the next one runs.
      ws.send(JSON.stringify({ id: 5, method: 'checks.verify', params: { session: 'web' } }));
      await until('the reply', () => messages.some((m) => m['id'] === 5), () => JSON.stringify(messages));
      expect(reply(5)).toMatchObject({ ok: true });
      ws.close();
    } finally {
      watcher.c.close();
      ui.child.kill('SIGTERM');
    }
  });

  it('opens the browser on a 0600 file in MORI_HOME, so no argv carries the token; the file goes once the token is spent', { timeout: 60_000 }, async () => {
    const bin = path.join(h.tmp, 'bin');
    const argvFile = path.join(h.tmp, 'opener-argv.json');
    mkdirSync(bin, { recursive: true });
    const opener = path.join(bin, 'xdg-open');
    writeFileSync(opener, `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(process.argv.slice(2)));\n`);
    chmodSync(opener, 0o755);
    const ui = await startUi([], { PATH: `${bin}:${process.env['PATH'] ?? ''}` });
    // The opener creates its file and then writes it: wait for what it wrote, not the file alone.
    const argv = (await untilValue('the opener to run', () => openerArgv(argvFile), (v) => v !== null, undefined, () => ui.err())) ?? [];
    expect(argv).toHaveLength(1);
    expect(argv.join(' ')).not.toContain(ui.token);
    const file = argv[0] ?? '';
    expect(path.dirname(file)).toBe(h.home);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`http-equiv="refresh" content="0;url=${ui.url.href}"`);
    await secretFor(ui);
    await until('the spent link\'s file to go', () => !existsSync(file));
    ui.child.kill('SIGTERM');
  });

  it('refuses --host off loopback unless --allow-insecure-network, and then warns', { timeout: 60_000 }, async () => {
    const refused = h.mori('ui', '--host', '0.0.0.0', '--no-open');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--host 0\.0\.0\.0 is reachable from other machines over plain HTTP.*--allow-insecure-network/);
    const ui = await startUi(['--host', '0.0.0.0', '--allow-insecure-network', '--no-open']);
    await until('the warning', () => /warning: listening on 0\.0\.0\.0/.test(ui.err()), () => ui.err());
    ui.child.kill('SIGTERM');
  });
});
