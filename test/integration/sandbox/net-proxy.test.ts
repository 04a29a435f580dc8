// The `allowlist` network mode for real: the proxy runs as its own detached `mori net-proxy` process
// (the compiled CLI, built by test/support/global-setup.ts), the bridge as the Node program a sandbox
// runs, and curl as the agent behind it with the proxy variables proxy-env.ts sets. An allowed
// loopback server answers through it, plainly and through CONNECT; another host gets 403 naming it; the
// proxy outlives the process group that started it; and inside bubblewrap with a network namespace of
// its own, the agent reaches the server only through the bound socket.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureNetProxy, netProxyRunning, startNetProxy, stopNetProxy, type ProxyLaunch } from '../../../main/sandbox/net-proxy-process.js';
import { ensureProxyBridge } from '../../../main/sandbox/proxy-bridge.js';
import { bridgeArgv, proxyEnv } from '../../../main/sandbox/proxy-env.js';
import { MORI_BIN, REPO, tempDir } from '../../../testkit/mori-cli.js';
import { until } from '../../../testkit/until.js';

const launch: ProxyLaunch = { execPath: process.execPath, entry: MORI_BIN, env: process.env };
/** The bridge's port inside the sandbox; outside it any free one would do, so a high one unlikely to be taken. */
const BRIDGE_PORT = 38_417;

let server: http.Server;
let serverPort: number;
let root: string;
const dirs: string[] = [];

beforeAll(async () => {
  root = tempDir('net-proxy');
  server = http.createServer((req, res) => res.end(`hello from the stand-in: ${req.method} ${req.url}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  serverPort = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});
afterEach(async () => {
  for (const d of dirs.splice(0)) await stopNetProxy(d);
});

async function proxy(name: string, allowedHosts: string[]): Promise<{ dir: string; socket: string }> {
  const dir = path.join(root, name);
  dirs.push(dir);
  const r = await startNetProxy({ dir, allowedHosts, launch });
  if (!r.ok) throw new Error(r.message);
  return { dir, socket: r.value.socket };
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sh -c script` as the agent behind the bridge, with the proxy variables of `allowedHosts`,
 * optionally inside `wrap`. Asynchronously: the stand-in server answers on this test's own loop.
 */
async function agent(socket: string, allowedHosts: string[], script: string, wrap: string[] = []): Promise<Run> {
  const bridge = ensureProxyBridge(path.join(root, 'hooks'));
  const argv = [...wrap, ...bridgeArgv({ node: process.execPath, bridge, port: BRIDGE_PORT, socket }, ['sh', '-c', script])];
  const child = spawn(argv[0] ?? '', argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...proxyEnv(BRIDGE_PORT, allowedHosts) } });
  const run: Run = { status: null, stdout: '', stderr: '' };
  child.stdout.on('data', (b: Buffer) => (run.stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (run.stderr += b.toString()));
  await new Promise<void>((resolve) => child.on('close', (code) => ((run.status = code), resolve())));
  return run;
}

describe('the allowlist proxy behind the bridge', () => {
  it('passes an allowed loopback server, plainly and through CONNECT, and refuses another host with 403 naming it', async () => {
    const allowed = [`127.0.0.1:${serverPort}`];
    const { socket } = await proxy('plain', allowed);
    const r = await agent(socket, allowed, [
      `curl -sS http://127.0.0.1:${serverPort}/plain`,
      'echo',
      `curl -sS --proxytunnel http://127.0.0.1:${serverPort}/tunnel`,
      'echo',
      // Another loopback address, and the allowed one on another port: neither is in the list.
      `curl -sS -w ' %{http_code}' http://127.0.0.2:${serverPort}/`,
      `curl -sS -w ' %{http_code}' http://127.0.0.1:${serverPort + 1}/`,
      `curl -sS --proxytunnel https://example.invalid/ 2>&1 || echo "exit $?"`,
    ].join('; '));
    expect(r.stderr).toBe('');
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('hello from the stand-in: GET /plain');
    expect(out[1]).toBe('hello from the stand-in: GET /tunnel');
    expect(out[2]).toBe(`Mori sandbox: 127.0.0.2:${serverPort} is not an allowed host of this session`);
    expect(out[3]).toBe(' 403Mori sandbox: 127.0.0.1:' + String(serverPort + 1) + ' is not an allowed host of this session');
    expect(r.stdout).toMatch(/CONNECT tunnel failed, response 403/);
    expect(r.status).toBe(0);
  });

  it('keeps the agent\'s exit code through the bridge', async () => {
    const { socket } = await proxy('exit', []);
    expect((await agent(socket, [], 'exit 7')).status).toBe(7);
  });

  it('outlives the process group that started it, and is found again by its dir', async () => {
    const dir = path.join(root, 'orphan');
    dirs.push(dir);
    const modUrl = pathToFileURL(path.join(REPO, 'out/cli/main/sandbox/net-proxy-process.js')).href;
    const script = `import { startNetProxy } from ${JSON.stringify(modUrl)};
const r = await startNetProxy({ dir: ${JSON.stringify(dir)}, allowedHosts: [${JSON.stringify(`127.0.0.1:${serverPort}`)}], launch: ${JSON.stringify(launch)} });
console.log(JSON.stringify(r));
setInterval(() => {}, 60_000);`;
    // Its own process group, as the daemon is: killing that group is a daemon gone with everything it holds.
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await until('the parent to start the proxy', () => out.includes('\n'), () => out);
    const started = JSON.parse(out) as { ok: boolean; value: { pid: number; socket: string } };
    expect(started.ok).toBe(true);
    process.kill(-(parent.pid ?? 0), 'SIGKILL');
    await until('the parent to be gone', () => parent.exitCode !== null || parent.signalCode !== null);
    const found = await netProxyRunning(dir);
    expect(found?.pid).toBe(started.value.pid);
    const again = await ensureNetProxy({ dir, allowedHosts: [`127.0.0.1:${serverPort}`], launch });
    expect(again.ok && again.value.pid).toBe(started.value.pid);
    const r = await agent(started.value.socket, [`127.0.0.1:${serverPort}`], `curl -sS http://127.0.0.1:${serverPort}/after`);
    expect(r.stdout).toBe('hello from the stand-in: GET /after');
  });

  it('stops on request, and by itself once its socket is removed', async () => {
    const a = await proxy('stop', []);
    const pid = (await netProxyRunning(a.dir))?.pid;
    await stopNetProxy(a.dir);
    expect(existsSync(a.socket)).toBe(false);
    expect(await netProxyRunning(a.dir)).toBeNull();
    const b = await proxy('removed', []);
    const pidB = (await netProxyRunning(b.dir))?.pid ?? 0;
    expect(pidB).not.toBe(pid);
    rmSync(b.dir, { recursive: true, force: true });
    await until('the proxy to exit once its socket is gone', () => !isRunning(pidB), () => `pid ${pidB}`, 15_000);
  });

  it('a proxy that does not end within the grace is killed, and its socket removed for it', async () => {
    const a = await proxy('frozen', []);
    const pid = (await netProxyRunning(a.dir))?.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    // Stopped, it cannot answer SIGTERM, as a proxy on a machine too loaded to exit within the grace.
    process.kill(pid, 'SIGSTOP');
    await stopNetProxy(a.dir);
    expect(existsSync(a.socket)).toBe(false);
    expect(await netProxyRunning(a.dir)).toBeNull();
    await until('the frozen proxy killed', () => !isRunning(pid), () => `pid ${pid}`, 15_000);
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim()[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('inside bubblewrap with its own network namespace', () => {
  it('reaches an allowed loopback server only through the bound socket', async () => {
    const allowed = [`127.0.0.1:${serverPort}`];
    const { socket } = await proxy('bwrap', allowed);
    // The whole file system read-only, the test's dir (the socket and the bridge) bound as itself.
    const wrap = ['bwrap', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', root, root, '--'];
    const r = await agent(socket, allowed, [
      `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${serverPort}/direct 2>&1 || echo "direct refused"`,
      `curl -sS http://127.0.0.1:${serverPort}/proxied`,
    ].join('; '), wrap);
    expect(r.stdout).toMatch(/direct refused/);
    expect(r.stdout).not.toMatch(/GET \/direct/);
    expect(r.stdout).toMatch(/hello from the stand-in: GET \/proxied$/);
    expect(r.status).toBe(0);
  });
});
