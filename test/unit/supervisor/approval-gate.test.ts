// The approval gate's parts: which requests approve or launch an agent, the decision when the peer
// cannot be named, and the ancestry verdict on real processes (a child, an orphan still in the agent's
// session). The peer of a real socket is in supervisor-peer-process.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insideAgent } from '../../../main/daemon/agent-ancestry.js';
import { agentRefusedAction, APPROVALS_FROM_PERSON, approvingAction, judgePeer, launchingAction } from '../../../main/daemon/approval-gate.js';

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

describe('launchingAction', () => {
  it('names creating and starting a session whatever the params; the rest an agent may do (log, status, checks, typing into and stopping its session) is not refused', () => {
    expect(launchingAction('session.init', { projectDir: '/p', name: 'n', profile: 'claude', backend: 'direct', task: 'anything' })).toMatch(/creating a session/);
    expect(launchingAction('start', { session: 's' })).toMatch(/starting a session/);
    expect(launchingAction('session.handoff', { session: 's', profile: 'codex' })).toMatch(/handing a session to another agent/);
    // An agent-profile session is refused as a launch; one with a command as the approval it also is.
    expect(agentRefusedAction('session.init', { projectDir: '/p', name: 'n', profile: 'claude', backend: 'direct' })).toMatch(/creating a session \(/);
    expect(agentRefusedAction('session.init', { projectDir: '/p', name: 'n', profile: 'shell', backend: 'direct', command: 'sh' })).toMatch(/command approved/);
    expect(agentRefusedAction('limit.resume-now', { session: 's' })).toMatch(/usage limit/);
    for (const m of ['list', 'send', 'stop', 'log.append', 'log.tail', 'checks.list', 'checks.verify', 'state.read', 'state.write', 'sessions.listing'] as const) expect(agentRefusedAction(m, { session: 's' }), m).toBeNull();
  });
});

describe('judgePeer', () => {
  const agents = [{ name: 'a', pid: 999_999_999 }];
  it('allows without looking when no agent runs', () => {
    expect(judgePeer({ known: false, reason: 'x' }, [], 'doing it')).toBeNull();
  });
  it('refuses a peer the kernel did not name (no way to ask, or it is gone) while agents run, and says why', () => {
    for (const reason of ['the koffi module could not be loaded: nope', 'the kernel cannot be asked for a socket\'s peer on aix', 'the process that connected (pid 5) has exited']) {
      const r = judgePeer({ known: false, reason }, agents, 'doing it');
      expect(r?.failure.code).toBe('forbidden');
      expect(r?.failure.message).toContain(reason);
      expect(r?.failure.message).toContain(APPROVALS_FROM_PERSON);
    }
  });
  it('allows a peer outside every agent', () => {
    expect(judgePeer({ known: true, pid: process.pid }, agents, 'doing it')).toBeNull();
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
