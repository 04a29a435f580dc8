// The daemon's process model, for real: `mori up --daemon` returns once it answers and prints its
// pid; a second `mori up` (daemon or foreground) says so and exits 1, touching nothing; two clients
// starting it at once start one; `mori down` stops it, leaving tmux agents to be re-attached by the
// next daemon while direct agents are logged as interrupted; `--stop-agents` stops them all as the
// person; control commands start the daemon when none answers; `mori ls` shows live activity; a
// daemon of another protocol version is named with what to do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMoriAsync } from '../../testkit/mori-cli.js';
import { UpHarness } from '../support/mori-up.js';
import { until } from '../../testkit/until.js';
import { pidAlive } from '../../main/os/pid-alive.js';
import { DaemonConnection, type DaemonConnectionState } from '../../main/daemon-client/daemon-connection.js';
import type { DaemonEvent } from '../../common/ipc.js';

let h: UpHarness;
beforeEach(() => {
  h = new UpHarness('daemon');
});
afterEach(() => h.cleanup());

const sock = (): string => path.join(h.home, 'mori.sock');
const recorded = (): string => (existsSync(h.record) ? readFileSync(h.record, 'utf8') : '');
const daemonPid = (out: string): number => Number(/pid (\d+)/.exec(out)?.[1]);
const tmuxHas = (name: string): boolean => spawnSync('tmux', ['-L', h.socketName, 'ls']).stdout?.toString().includes(name) ?? false;

describe('mori up --daemon', () => {
  it('returns once it answers, refuses a second daemon or foreground supervisor, and stops with mori down', { timeout: 90_000 }, async () => {
    h.init('dr', 'direct');
    const up = h.mori('up', '--daemon');
    expect(up.code, up.stderr).toBe(0);
    const pid = daemonPid(up.stdout);
    expect(pidAlive(pid)).toBe(true);
    expect(statSync(sock()).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(h.home, 'logs', 'daemon.log'))).toBe(true);
    await until('the agent to start', () => h.starts().length === 1);
    const log = h.workLog('dr');

    for (const args of [['up', '--daemon'], ['up']]) {
      const again = h.mori(...args);
      expect(again.code, args.join(' ')).toBe(1);
      expect(again.stderr).toMatch(new RegExp(`another Mori supervisor is running \\(pid ${pid}\\)`));
    }
    expect(h.workLog('dr')).toBe(log); // touching nothing
    expect(h.starts()).toHaveLength(1);
    expect(h.mori('ls').stdout).toMatch(/dr {2}(running|waiting|working)\b/);

    const t0 = Date.now();
    const down = h.mori('down');
    expect(down.code, down.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000 + 2_000); // the budget, plus starting the `mori` process itself
    expect(pidAlive(pid)).toBe(false);
    expect(h.workLog('dr')).toMatch(/SESSION INTERRUPTED - supervisor stopped/);
    await until('the direct agent to exit', () => recorded().includes('"event":"exit"'));
    const none = h.mori('ls');
    expect(none.stdout).toMatch(/No Mori supervisor is running/);
    expect(h.mori('down').stdout).toMatch(/No Mori supervisor is running/);
  });

  it('tmux agents survive mori down and are re-attached by the next daemon; --stop-agents stops them as the person', { timeout: 120_000 }, async () => {
    h.init('tm', 'tmux');
    expect(h.mori('up', '--daemon').code).toBe(0);
    await until('the agent to start', () => h.starts().length === 1);
    expect(h.mori('down').code).toBe(0);
    expect(tmuxHas('mori-')).toBe(true);
    expect(h.workLog('tm')).toMatch(/SESSION INTERRUPTED - supervisor stopped/);

    expect(h.mori('up', '--daemon').code).toBe(0);
    await until('re-attach', () => /REATTACHED - tmux session mori-/.test(h.workLog('tm')));
    expect(h.starts()).toHaveLength(1);
    expect(h.mori('send', 'tm', 'print:after-down').code).toBe(0);
    await until('the input to reach the same agent', () => recorded().includes('"line":"print:after-down"'));

    const down = h.mori('down', '--stop-agents');
    expect(down.code, down.stderr).toBe(0);
    expect(h.workLog('tm')).toMatch(/SESSION STOPPED - by the user/);
    const session = JSON.parse(readFileSync(path.join(h.stateDir('tm'), 'session.json'), 'utf8')) as { intent: { kind: string } };
    expect(session.intent.kind).toBe('user-stopped');
    // The agent is gone: no pane of the tmux server still runs a program.
    const live = (): string[] => (spawnSync('tmux', ['-L', h.socketName, 'list-panes', '-a', '-F', '#{pane_dead}']).stdout?.toString() ?? '').split('\n').filter((l) => l === '0');
    await until('the agent to end', () => live().length === 0);
  });

  it('two clients starting the daemon at once start one', { timeout: 60_000 }, async () => {
    h.init('one', 'direct');
    const [a, b] = await Promise.all([
      runMoriAsync(['up', '--daemon'], { home: h.home, cwd: h.project, env: h.env }),
      runMoriAsync(['up', '--daemon'], { home: h.home, cwd: h.project, env: h.env }),
    ]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    await until('the agent to start', () => h.starts().length === 1);
    const ready = readFileSync(path.join(h.home, 'logs', 'daemon.log'), 'utf8').split('\n').filter((l) => l.includes('"supervisor.ready"'));
    expect(ready).toHaveLength(1);
    expect(h.starts()).toHaveLength(1);
  });

  it('a control command starts the daemon when none answers, and says so; the daemon removes private git dirs a killed process left', { timeout: 60_000 }, async () => {
    h.init('auto', 'direct');
    // The temp dir the daemon will use, holding a private git dir of a process that is gone and one of a live one.
    const tmp = path.join(h.tmp, 'tmp');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    mkdirSync(path.join(tmp, `mori-git-${gone}-aB3dE9`, 'refs'), { recursive: true });
    mkdirSync(path.join(tmp, `mori-git-${process.pid}-Zz9Yy8`), { recursive: true });
    h.env['TMPDIR'] = tmp;
    const send = h.mori('send', 'auto', 'print:autostarted');
    expect(send.code, send.stderr).toBe(0);
    expect(send.stderr).toMatch(/no Mori supervisor is running; started a daemon \(pid \d+/);
    await until('the text to reach the agent', () => recorded().includes('"line":"print:autostarted"'));
    expect(h.mori('send', 'auto', 'print:again').stderr).toBe('');
    await until('the abandoned private git dir to be removed', () => !existsSync(path.join(tmp, `mori-git-${gone}-aB3dE9`)));
    expect(existsSync(path.join(tmp, `mori-git-${process.pid}-Zz9Yy8`))).toBe(true);
  });

  it("a SIGKILLed daemon's socket clients notice, reconnect after mori up --daemon, and re-subscribe", { timeout: 90_000 }, async () => {
    h.init('rc', 'direct');
    expect(h.mori('up', '--daemon').code).toBe(0);
    const conn = new DaemonConnection(h.home, { reconnectMs: 100 });
    const states: DaemonConnectionState[] = [];
    const events: DaemonEvent[] = [];
    conn.onState((s) => states.push(s));
    conn.onEvent((e) => events.push(e));
    conn.start();
    try {
      await until('the connection', () => conn.state === 'open');
      const first = conn.daemon?.pid ?? 0;
      process.kill(first, 'SIGKILL');
      await until('the client to notice', () => states.includes('closed'));
      expect((await conn.request('list', {})).ok).toBe(false); // a value, not a hang
      const again = h.mori('up', '--daemon');
      expect(again.code, again.stderr).toBe(0);
      await until('the reconnect', () => conn.state === 'open' && conn.daemon?.pid !== first, () => states.join(','));
      expect((await conn.request('log.append', { session: 'rc', text: 'after the restart' })).ok).toBe(true);
      await until('an event through the new subscription', () => events.some((e) => e.type === 'log.appended' && e.name === 'rc'));
    } finally {
      conn.close();
    }
  });

  it('a daemon of another protocol version is named, with what to do', async () => {
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    const server = net.createServer((s) => {
      s.setEncoding('utf8');
      s.on('data', (d: string) => {
        const req = JSON.parse(d.split('\n')[0] ?? '{}') as { id: number };
        s.write(JSON.stringify({ kind: 'reply', id: req.id, ok: true, value: { protocol: 99, pid: 4242, home: h.home, startedAt: 0 } }) + '\n');
      });
    });
    await new Promise<void>((r) => server.listen(sock(), r));
    try {
      const r = await runMoriAsync(['stop', 'x'], { home: h.home, cwd: h.project, env: h.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/pid 4242\) speaks protocol 99, this mori speaks 1: replace it with `mori down && mori up --daemon`/);
      const ls = await runMoriAsync(['ls'], { home: h.home, cwd: h.project, env: h.env });
      expect(ls.stdout).toMatch(/speaks protocol 99[^\n]*states are as last recorded/);
    } finally {
      await new Promise((r) => server.close(r));
      if (existsSync(sock())) unlinkSync(sock());
    }
  });
});
