// A sandboxed session in `allowlist` network mode, launched for real by `mori up --daemon`: its agent
// (a shell script under real bubblewrap, in a network namespace of its own) reaches an allowed
// loopback server through HTTP(S)_PROXY and the session's proxy, is refused with 403 for another host,
// and cannot connect to the server directly; stopping the session stops its proxy.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../../main/os/pid-alive.js';
import { readNetProxyState } from '../../../main/sandbox/net-proxy-state.js';
import { NET_PROXY_DIR } from '../../../main/sandbox/net-proxy-process.js';
import { DEADLINE_MS, until, UpHarness } from '../../support/mori-up.js';

const bwrapWorks = ((): boolean => {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--proc', '/proc', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let h: UpHarness | null = null;
let server: http.Server | null = null;
afterEach(async () => {
  h?.cleanup();
  h = null;
  if (server !== null) await new Promise((r) => server?.close(r));
  server = null;
});

describe.skipIf(!bwrapWorks && !process.env['CI'])('a sandboxed session with an allowlist network (real bubblewrap)', () => {
  it('reaches an allowed loopback server only through its proxy, gets 403 for another host, and its proxy ends with it', { timeout: 120_000 }, async () => {
    const s = http.createServer((req, res) => res.end(`hello from the stand-in: ${req.method} ${req.url}`));
    server = s;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    h = new UpHarness('sbx-net');
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(h.home, 'settings.json'), JSON.stringify({ sandbox: { network: 'allowlist', allowedHosts: [`127.0.0.1:${port}`] } }));
    const out = path.join(h.project, 'net-results');
    mkdirSync(out);
    const r = (name: string): string => `> '${out}/${name}.out' 2>&1; echo $? > '${out}/${name}.code'`;
    const script = path.join(h.project, 'agent.sh');
    writeFileSync(
      script,
      [
        `env | grep -i _proxy= | sort ${r('env')}`,
        `curl -sS http://127.0.0.1:${port}/plain ${r('allowed')}`,
        `curl -sS --proxytunnel http://127.0.0.1:${port}/tunnel ${r('tunnel')}`,
        `curl -sS -w ' %{http_code}' http://127.0.0.2:${port}/ ${r('other')}`,
        `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/direct ${r('direct')}`,
        `echo done > '${out}/done'`,
        'exec sleep 600',
      ].join('\n'),
    );
    const init = h.mori('init', h.project, '--name', 'netbox', '--agent', 'shell', '--backend', 'direct', '--sandbox', '--command', `sh ${script}`, '--json');
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(h.stateDir('netbox'), 'session.json'), 'utf8'))).toMatchObject({ sandbox: { on: true, network: 'allowlist' } });
    const up = h.mori('up', '--daemon', 'netbox');
    expect(up.code, up.stderr).toBe(0);
    await until('the agent tried the network', () => existsSync(path.join(out, 'done')), () => readdirSync(out).join(', ') + h!.workLog('netbox'), DEADLINE_MS * 2);

    const said = (name: string): string => readFileSync(path.join(out, `${name}.out`), 'utf8');
    const code = (name: string): string => readFileSync(path.join(out, `${name}.code`), 'utf8').trim();
    expect(said('env')).toContain('HTTPS_PROXY=http://127.0.0.1:3128');
    expect(said('allowed')).toBe('hello from the stand-in: GET /plain');
    expect(said('tunnel')).toBe('hello from the stand-in: GET /tunnel');
    expect(said('other')).toBe(`Mori sandbox: 127.0.0.2:${port} is not an allowed host of this session\n 403`);
    // Straight to the server: the sandbox's loopback is its own, nothing listens there.
    expect(code('direct'), said('direct')).not.toBe('0');
    expect(said('direct')).not.toContain('hello');

    const dirs = readdirSync(path.join(h.home, NET_PROXY_DIR));
    expect(dirs).toHaveLength(1);
    const proxy = readNetProxyState(path.join(h.home, NET_PROXY_DIR, dirs[0] ?? ''));
    expect(proxy?.allowedHosts).toContain(`127.0.0.1:${port}`);
    expect(pidAlive(proxy?.pid ?? 0)).toBe(true);
    const stop = h.mori('stop', 'netbox');
    expect(stop.code, stop.stderr).toBe(0);
    await until('the proxy to end with its agent', () => !pidAlive(proxy?.pid ?? 0), () => h!.workLog('netbox'), DEADLINE_MS);
  });
});
