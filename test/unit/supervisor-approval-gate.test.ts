// The approval gate's parts: reading the peer's pids out of `ss -xpn` (paths with spaces, process
// names that try to inject or break lines), which requests approve, the decision when the peer cannot
// be named, and the ancestry verdict on real processes (a child, an orphan still in the agent's session).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insideAgent } from '../../main/daemon/agent-ancestry.js';
import { APPROVALS_FROM_PERSON, approvingAction, judgePeer } from '../../main/daemon/approval-gate.js';
import { parsePeerPids } from '../../main/daemon/peer-process.js';

const SS = [
  'Netid State Recv-Q Send-Q Local Address:Port Peer Address:PortProcess',
  'u_str ESTAB 0      0                  * 1073            * 1072       ',
  'u_str ESTAB 0      0                           * 10452            * 10453 users:(("node",pid=7982,fd=20),("sh",pid=7990,fd=20))',
  'u_str ESTAB 0      0      /tmp/a 5 b dir/mori.sock 10453            * 10452 users:(("node",pid=7000,fd=21))',
].join('\n');

describe('parsePeerPids', () => {
  it('names every process holding the peer socket, with spaces in the socket path', () => {
    expect(parsePeerPids(SS, 10453)).toEqual([7982, 7990]);
  });
  it('is unknown when the peer is not listed (it exited) or holds no process', () => {
    expect(parsePeerPids(SS.split('\n').slice(0, 2).concat(SS.split('\n')[3] ?? '').join('\n'), 10453)).toBeNull();
    expect(parsePeerPids(SS, 1072)).toBeNull();
    expect(parsePeerPids('', 10453)).toBeNull();
  });
  it('never loses the real pid to a process name holding `pid=`, and a name with a newline leaves it unknown', () => {
    const injected = SS.replace('("node",pid=7982', '("x),pid=1,(",pid=7982');
    expect(parsePeerPids(injected, 10453)).toContain(7982);
    const broken = SS.replace('("node",pid=7982', '("no\nde",pid=7982');
    expect(parsePeerPids(broken, 10453)).toBeNull();
  });
});

describe('approvingAction', () => {
  it('names trust (checks and agent command), session.init with a command, settings.set, daemon.stop, session.remove and session.rename; nothing else', () => {
    expect(approvingAction('checks.trust', { session: 's', hash: 'h' })).toMatch(/approving/);
    expect(approvingAction('agent.trust', { session: 's', hash: 'h' })).toMatch(/approving a session's agent command/);
    expect(approvingAction('agent.trust', { bogus: true })).toMatch(/agent command/);
    expect(approvingAction('session.init', { projectDir: '/p', name: 'n', profile: 'shell', backend: 'direct', command: 'sh' })).toMatch(/command approved/);
    expect(approvingAction('session.init', { projectDir: '/p', name: 'n', profile: 'claude', backend: 'direct' })).toBeNull();
    // Confirming a rollback over a working agent is the person's; a plain or dry-run rollback approves nothing.
    expect(approvingAction('rollback', { session: 's', to: 'start', confirm: true })).toMatch(/rollback while the agent works/);
    expect(approvingAction('rollback', { session: 's', to: 'start' })).toBeNull();
    expect(approvingAction('rollback', { session: 's', to: 'start', confirm: true, dryRun: true })).toBeNull();
    // A malformed init is treated as approving: the gate decides before the schema says no.
    expect(approvingAction('session.init', { command: 5 })).not.toBeNull();
    expect(approvingAction('settings.set', {})).toMatch(/settings/);
    expect(approvingAction('daemon.stop', {})).toMatch(/stopping/);
    // Whatever the params: a malformed removal is refused from an agent before the schema is asked.
    expect(approvingAction('session.remove', { session: 's' })).toMatch(/removing a session/);
    expect(approvingAction('session.remove', { bogus: true })).toMatch(/removing a session/);
    expect(approvingAction('session.rename', { session: 's', name: 'n' })).toMatch(/renaming a session/);
    for (const m of ['list', 'send', 'start', 'stop', 'checks.list', 'checks.verify', 'log.append', 'state.write', 'settings.get'] as const) expect(approvingAction(m, {})).toBeNull();
  });
});

describe('judgePeer', () => {
  const agents = [{ name: 'a', pid: 999_999_999 }];
  it('allows without looking when no agent runs', () => {
    expect(judgePeer({ known: false, why: 'failed', reason: 'x' }, [], 'doing it')).toBeNull();
  });
  it('refuses a peer that could not be named on a platform that can name it, and says why', () => {
    const r = judgePeer({ known: false, why: 'failed', reason: '`ss` (iproute2) is not installed' }, agents, 'doing it');
    expect(r?.failure.code).toBe('forbidden');
    expect(r?.failure.message).toContain('iproute2');
    expect(r?.failure.message).toContain(APPROVALS_FROM_PERSON);
  });
  it('allows where the platform gives no way to name the peer', () => {
    expect(judgePeer({ known: false, why: 'unsupported', reason: 'darwin' }, agents, 'doing it')).toBeNull();
  });
  it('allows a peer outside every agent', () => {
    expect(judgePeer({ known: true, pids: [process.pid] }, agents, 'doing it')).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('insideAgent on real processes', () => {
  const children: ChildProcess[] = [];
  let dir: string | null = null;
  afterEach(() => {
    for (const c of children.splice(0)) {
      try {
        if (c.pid) process.kill(-c.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('sees a descendant, and an orphan re-parented away that is still in the agent\'s session; not this process', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mori-ancestry-'));
    const pids = path.join(dir, 'pids');
    // The "agent" leads its own session (as a pty's program does); it starts a child it keeps and an
    // orphan (its parent shell exits at once), then waits.
    const agent = spawn('sh', ['-c', `sleep 30 & echo child $! >> '${pids}'; sh -c "sleep 30 & echo orphan \\$! >> '${pids}'"; wait`], { detached: true, stdio: 'ignore' });
    children.push(agent);
    const deadline = Date.now() + 5_000;
    while (!(existsSync(pids) && readFileSync(pids, 'utf8').split('\n').length > 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const found = Object.fromEntries(readFileSync(pids, 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string]));
    const agents = [{ name: 'demo', pid: agent.pid as number }];
    expect(insideAgent(Number(found['child']), agents)).toMatchObject({ inside: true, reason: expect.stringMatching(/ancestor \d+ is the agent of session "demo"/) as unknown });
    // Its parent shell exits just after writing its pid: until then the orphan is still a descendant.
    const orphan = Number(found['orphan']);
    const reason = (): string => {
      const v = insideAgent(orphan, agents);
      return v.inside ? v.reason : '';
    };
    while (!/session or group/.test(reason()) && Date.now() < deadline + 5_000) await new Promise((r) => setTimeout(r, 20));
    expect(insideAgent(orphan, agents)).toMatchObject({ inside: true, reason: expect.stringMatching(/session or group of session "demo"/) as unknown });
    expect(insideAgent(process.pid, agents)).toEqual({ inside: false });
  });
});
