// The supervisor's small parts on their own: the agent's environment, the program check, the crash
// history read back onto awake time, the launch queue surviving a failing job, an impossible
// lifecycle move reported instead of thrown, an attention kept through a failed state write, and the
// one definition of a passed verification.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verificationPassed } from '../../../common/checks.js';
import type { SupervisorEvent } from '../../../common/events.js';
import { getProfile } from '../../../main/agents/profiles.js';
import { systemClock, type Scheduler } from '../../../main/power/clock.js';
import { createSession } from '../../../main/state/state-dir.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { agentEnvironment } from '../../../main/supervisor/launch/agent-env.js';
import { checkAgentProgram, resolveProgram } from '../../../main/agents/agent-program.js';
import { LaunchQueue } from '../../../main/supervisor/launch/launch-queue.js';
import { crashTimes, recordCrash } from '../../../main/supervisor/session/restart-history.js';
import { initialRestartState } from '../../../main/supervisor/session/restart-policy.js';
import { SAID_BEFORE, SessionRuntime } from '../../../main/supervisor/session/session-runtime.js';
import { SessionStore } from '../../../main/supervisor/session/session-store.js';
import { SessionTransitions } from '../../../main/supervisor/session/transitions.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-parts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('agentEnvironment', () => {
  it('strips CI, ELECTRON_* and internal MORI_* variables, keeps the rest, sets the session variables', () => {
    const env = agentEnvironment(
      {
        PATH: '/usr/bin',
        HOME: '/home/x',
        CI: 'true',
        ELECTRON_RUN_AS_NODE: '1',
        ELECTRON_NO_ATTACH_CONSOLE: '1',
        MORI_AGENT_BIN_CLAUDE: '/fake',
        MORI_PROBE: 'none',
        MORI_TMUX_SOCKET: 's',
        MORI_HOME: '/h',
        MORI_SESSION_ID: 'stale',
        ANTHROPIC_API_KEY: 'k',
        UNSET: undefined,
      },
      { sessionId: 'id-1', stateDir: '/p/.mori/s' },
    );
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/x', MORI_HOME: '/h', ANTHROPIC_API_KEY: 'k', MORI_SESSION_ID: 'id-1', MORI_STATE_DIR: '/p/.mori/s' });
  });
});

describe('the agent program check', () => {
  it('finds a program on PATH or by path, and names the program and how to install it when missing', () => {
    const bin = path.join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'agentx'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'agentx'), 0o755);
    writeFileSync(path.join(bin, 'not-exec'), '');
    expect(resolveProgram('agentx', { PATH: `/nonexistent:${bin}` }, tmp)).toBe(path.join(bin, 'agentx'));
    expect(resolveProgram(path.join(bin, 'agentx'), { PATH: '' }, '/')).toBe(path.join(bin, 'agentx'));
    expect(resolveProgram('not-exec', { PATH: bin }, tmp)).toBeNull();
    const missing = checkAgentProgram('claude', 'claude', { PATH: bin }, tmp);
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/"claude" was not found .*MORI_AGENT_BIN_CLAUDE.*npm install -g @anthropic-ai\/claude-code/);
  });
});

describe('the crash history', () => {
  it('is read back as awake time within a boot, as wall time across boots and for old entries', () => {
    const at = Date.parse('2026-11-30T12:00:00Z');
    let h = recordCrash([], { wallMs: at, systemAwakeMs: 1_000_000, bootId: 'b1' });
    h = recordCrash(h, { wallMs: at + 60_000, systemAwakeMs: 1_060_000, bootId: 'b1' });
    // One hour of wall time later, of which only two minutes awake (the machine slept).
    const now = { wallMs: at + 3_600_000, systemAwakeMs: 1_180_000, bootId: 'b1', monoMs: 50_000 };
    expect(crashTimes(h, now)).toEqual([50_000 - 180_000, 50_000 - 120_000]);
    expect(crashTimes(h, { ...now, bootId: 'b2' })).toEqual([50_000 - 3_600_000, 50_000 - 3_540_000]);
    expect(crashTimes(['2026-11-30T11:59:00.000Z'], now)).toEqual([50_000 - 3_660_000]);
    expect(recordCrash(Array.from({ length: 30 }, () => 'x'), now)).toHaveLength(20);
  });
});

describe('LaunchQueue', () => {
  it('runs jobs one at a time and goes on after one fails, reporting it', async () => {
    const scheduler: Scheduler = { after: (ms, fn) => { const t = setTimeout(fn, ms); return () => clearTimeout(t); } };
    const errors: string[] = [];
    const ran: string[] = [];
    const q = new LaunchQueue({ staggerMs: 0, scheduler, onError: (what, e) => errors.push(`${what}: ${String(e)}`) });
    q.enqueue('a', async () => void ran.push('a'));
    q.enqueue('b', async () => {
      throw new Error('boom');
    });
    q.enqueue('c', async () => void ran.push('c'));
    await q.idle();
    expect(ran).toEqual(['a', 'c']);
    expect(errors).toEqual(['b: Error: boom']);
  });
});

describe('SessionTransitions', () => {
  it('reports an impossible move as attention(internal) naming the state and the event, without throwing', async () => {
    const home = path.join(tmp, 'home');
    const project = path.join(tmp, 'project');
    mkdirSync(project);
    const created = await createSession({ projectDir: project, name: 'moves', profile: 'claude', backend: 'direct', home });
    if (!created.ok) throw new Error(created.message);
    const file = readSessionFile(created.value.stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const rt = new SessionRuntime(created.value.stateDir, { ...file.value, intent: { kind: 'user-stopped' } }, profile.value, initialRestartState(), () => undefined);
    const events: SupervisorEvent[] = [];
    const store = new SessionStore({ home, clock: systemClock, loaded: () => null });
    const moves = new SessionTransitions(systemClock, store, (e) => events.push(e));
    expect(rt.state).toBe('stopped');
    expect(moves.move(rt, 'ran')).toBe(false);
    expect(rt.state).toBe('attention');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'session.attention', reason: 'internal' });
    expect(events[0] && 'message' in events[0] && events[0].message).toMatch(/"ran" while the session was stopped/);
    const after = readSessionFile(created.value.stateDir);
    expect(after.ok && after.value.intent).toEqual({ kind: 'attention', reason: 'internal' });
  });

  it('keeps an attention for another reason when a state write fails after it (a crash loop stays a crash loop)', async () => {
    const home = path.join(tmp, 'home-loop');
    const project = path.join(tmp, 'project-loop');
    mkdirSync(project);
    const created = await createSession({ projectDir: project, name: 'loop', profile: 'claude', backend: 'direct', home });
    if (!created.ok) throw new Error(created.message);
    const file = readSessionFile(created.value.stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const rt = new SessionRuntime(created.value.stateDir, file.value, profile.value, initialRestartState(), () => undefined);
    const events: SupervisorEvent[] = [];
    const store = new SessionStore({ home, clock: systemClock, scheduler: { after: () => () => undefined }, loaded: () => rt });
    const moves = new SessionTransitions(systemClock, store, (e) => events.push(e));
    store.onUnwritable((r, message, reason) => moves.unwritable(r, message, reason));
    moves.attention(rt, 'crash-loop', 'the agent crashed 5 times within 10 minutes; not restarting it');
    expect(rt.attentionMessage?.reason).toBe('crash-loop');
    // A write that fails since (here a session.json that is not JSON): said, without replacing the reason.
    writeFileSync(path.join(created.value.stateDir, 'session.json'), '{ not json');
    expect(store.write(rt, (s) => ({ ...s, lastCheckpoint: null }))).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'session.attention', reason: 'state-unwritable' });
    expect(rt.attentionMessage?.reason).toBe('crash-loop');
  });
});

describe('SessionRuntime', () => {
  it('loaded in attention, says why (the recorded reason) rather than nothing', async () => {
    const home = path.join(tmp, 'home-att');
    const project = path.join(tmp, 'project-att');
    mkdirSync(project);
    const created = await createSession({ projectDir: project, name: 'waits', profile: 'claude', backend: 'direct', home });
    if (!created.ok) throw new Error(created.message);
    const file = readSessionFile(created.value.stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const rt = new SessionRuntime(created.value.stateDir, { ...file.value, intent: { kind: 'attention', reason: 'crash-loop' } }, profile.value, initialRestartState(), () => undefined);
    expect(rt.state).toBe('attention');
    expect(rt.attentionMessage).toEqual({ reason: 'crash-loop', message: SAID_BEFORE });
  });
});

describe('verificationPassed', () => {
  it('is true iff no check failed or timed out', () => {
    expect(verificationPassed({ failed: 0, timedOut: 0 })).toBe(true);
    expect(verificationPassed({ failed: 1, timedOut: 0 })).toBe(false);
    expect(verificationPassed({ failed: 0, timedOut: 1 })).toBe(false);
  });
});
