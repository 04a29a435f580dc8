// Exits the supervisor must never lose, against a real `mori up`: an agent that exits 0 while its
// session is interrupted(network) finishes; a tmux pane that died while Mori was down is read as the
// exit it was (0 → finished, else a crash resumed by id); a missing agent program asks for attention
// once instead of crash-looping; an unregistered state dir is never started.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../main/state/session-file.js';
import { hasEvent, UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

function listen(port = 0): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((s) => s.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const close = (s: net.Server): Promise<void> => new Promise((r) => s.close(() => r()));

const intentOf = (dir: string): unknown => {
  const f = readSessionFile(dir);
  return f.ok ? f.value.intent : f.message;
};

describe('exits', () => {
  it('an agent that exits 0 while its session is interrupted(network) is finished', async () => {
    const server = await listen();
    const port = (server.address() as net.AddressInfo).port;
    h = new UpHarness('netexit', { MORI_PROBE: `127.0.0.1:${port}`, MORI_PROBE_INTERVAL_MS: '500' });
    h.init('ne', 'direct');
    const u = h.up();
    await until('the agent to wait', () => hasEvent(u, 'session.activity', { to: 'waiting' }), u.stderr);
    await close(server);
    await until('offline', () => hasEvent(u, 'session.interrupted', { reason: 'network' }), u.stderr);
    expect(h.mori('send', 'ne', 'exit:0').code).toBe(0);
    await until('the exit', () => hasEvent(u, 'session.exited', { outcome: 'finished' }), u.stderr);
    expect(intentOf(h.stateDir('ne'))).toEqual({ kind: 'finished' });
    expect(u.stderr()).not.toMatch(/Uncaught|N-API/);
    expect(hasEvent(u, 'session.attention')).toBe(false);
  }, 60_000);

  for (const [code, outcome] of [[0, 'finished'], [3, 'resumed']] as const) {
    it(`a tmux pane that died with exit ${code} while Mori was down is ${outcome}, not a launch failure`, async () => {
      h = new UpHarness(`dead${code}`);
      h.init('dp', 'tmux');
      const first = h.up();
      await until('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first.stderr);
      first.child.kill('SIGKILL');
      await first.exited;
      const file = readSessionFile(h.stateDir('dp'));
      if (!file.ok) throw new Error(file.message);
      const tmux = (...args: string[]) => spawnSync('tmux', ['-L', h!.socketName, ...args], { encoding: 'utf8' });
      expect(tmux('send-keys', '-t', `=mori-${file.value.id}:`, `exit:${code}`, 'Enter').status).toBe(0);
      await until('the pane to die', () => tmux('list-panes', '-a', '-F', '#{pane_dead}').stdout.trim() === '1');

      const second = h.up();
      if (code === 0) {
        await until('finished', () => hasEvent(second, 'session.exited', { outcome: 'finished', code: 0 }), () => JSON.stringify(second.lines()) + second.stderr());
        expect(intentOf(h.stateDir('dp'))).toEqual({ kind: 'finished' });
        expect(h.workLog('dp')).toMatch(/SESSION FINISHED - agent exited 0 while Mori was down/);
        expect(h.starts()).toHaveLength(1);
      } else {
        await until('the resume', () => hasEvent(second, 'session.resumed', { launch: 'resume' }) && h!.starts().length === 2, second.stderr);
        const [a, b] = h.starts();
        expect(b!.argv.slice(0, 2)).toEqual(['--resume', a!.sessionId]);
        expect(h.workLog('dp')).toMatch(/agent crashed while Mori was down \(exit 3\)/);
      }
      expect(hasEvent(second, 'session.attention')).toBe(false);
    }, 60_000);
  }

  for (const backend of ['tmux', 'direct'] as const) {
    it(`an agent (${backend}) runs without Mori's internal variables; mori stop ends it for good`, async () => {
      h = new UpHarness(`stop-${backend}`);
      h.init('so', backend);
      const u = h.up();
      await until('the agent to wait', () => hasEvent(u, 'session.activity', { to: 'waiting' }), u.stderr);
      const pid = h.starts()[0]!.pid;
      // The agent's environment: its session's variables, none of Mori's internal ones.
      const seen = (h.starts()[0] as unknown as { env: Record<string, string> }).env;
      const id = (readSessionFile(h.stateDir('so')) as { ok: true; value: { id: string } }).value.id;
      expect(seen['MORI_SESSION_ID']).toBe(id);
      expect(seen['MORI_STATE_DIR']).toBe(h.stateDir('so'));
      expect(Object.keys(seen).filter((k) => k.startsWith('MORI_') && !['MORI_SESSION_ID', 'MORI_STATE_DIR', 'MORI_HOME', 'MORI_TERMINAL_ID'].includes(k))).toEqual([]);
      expect(h.mori('stop', 'so').code).toBe(0);
      await until('the stop', () => hasEvent(u, 'session.stopped', { by: 'user' }), u.stderr);
      const alive = (): boolean => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await until('the agent process to end', () => !alive());
      const file = readSessionFile(h.stateDir('so'));
      const name = `=mori-${file.ok ? file.value.id : '?'}`;
      if (backend === 'tmux') await until('the tmux session to go', () => spawnSync('tmux', ['-L', h!.socketName, 'has-session', '-t', name]).status !== 0);
      expect(intentOf(h.stateDir('so'))).toEqual({ kind: 'user-stopped' });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(h.starts()).toHaveLength(1);
    }, 60_000);
  }

  it('a missing agent program is attention(agent-missing) with how to install it, and is never restarted', async () => {
    h = new UpHarness('missing', { MORI_AGENT_BIN_CLAUDE: 'claude-not-installed-anywhere' });
    h.init('mi', 'tmux');
    const u = h.up();
    await until('attention', () => hasEvent(u, 'session.attention'), u.stderr);
    const attention = u.lines().find((e) => e['type'] === 'session.attention')!;
    expect(attention['reason']).toBe('agent-missing');
    expect(attention['message']).toMatch(/claude-not-installed-anywhere/);
    expect(attention['message']).toMatch(/npm install -g @anthropic-ai\/claude-code/);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(u.lines().filter((e) => e['type'] === 'session.started')).toHaveLength(0);
    expect(u.lines().filter((e) => e['type'] === 'session.attention')).toHaveLength(1);
    expect(intentOf(h.stateDir('mi'))).toEqual({ kind: 'attention', reason: 'agent-missing' });
  }, 60_000);

  it('`mori up <path>` and `mori start <path>` refuse a state dir that is not registered', async () => {
    h = new UpHarness('unreg');
    h.init('reg', 'direct');
    // A copy with its own name and id: a state dir nobody registered, naming its own command.
    const rogue = path.join(h.project, '.mori', 'rogue');
    cpSync(h.stateDir('reg'), rogue, { recursive: true });
    const json = JSON.parse(readFileSync(path.join(rogue, 'session.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(rogue, 'session.json'), JSON.stringify({ ...json, name: 'rogue', id: '00000000-0000-4000-8000-000000000001' }));
    const refused = h.mori('up', rogue);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/not a registered session/);
    expect(h.starts()).toHaveLength(0);

    const u = h.up(['reg']);
    await until('the registered agent', () => h!.starts().length === 1, u.stderr);
    const start = h.mori('start', rogue);
    expect(start.code).toBe(3);
    expect(start.stderr).toMatch(/not a registered session|no session with id .* in the registry/);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(h.starts()).toHaveLength(1);
  }, 60_000);
});
