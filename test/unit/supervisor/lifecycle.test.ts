// The supervisor's pure decisions, without timers or I/O: backoff with jitter, the crash-loop
// window over awake time, what an exit means, which sessions start, which launch, the transition
// table, and when a checkpoint counts as changed.
import { describe, expect, it } from 'vitest';
import { RUNTIME_STATES, SupervisorEvent } from '../../../common/events.js';
import { IpcRequestEnvelope, IpcServerMessage, parseParams } from '../../../common/ipc.js';
import { checkpointChanged, checkpointLogLine } from '../../../main/supervisor/checkpoints/checkpoint.js';
import { decideOnExit, LIFECYCLE, LIFECYCLE_EVENTS, meantToRun, nextState, RESUME_FAILURE_WINDOW_MS, startAction, startupInterruption, type ExitInput, type LifecycleEvent } from '../../../main/supervisor/session/lifecycle.js';
import { backoffDelay, DEFAULT_RESTART_POLICY as P, initialRestartState, onCrash } from '../../../main/supervisor/session/restart-policy.js';

describe('backoffDelay', () => {
  it('doubles from 1 s to a 60 s ceiling', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 10].map((a) => backoffDelay(a, 0.5))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });
  it('jitters by ±20 % and stays under the ceiling', () => {
    expect(backoffDelay(0, 0)).toBe(800);
    expect(backoffDelay(0, 0.999999)).toBe(1200);
    expect(backoffDelay(9, 0.999999)).toBe(60000);
    expect(backoffDelay(9, 0)).toBe(48000);
  });
  it('always grows from one attempt to the next, whatever the jitter, until the ceiling', () => {
    for (let a = 0; a < 5; a++) expect(backoffDelay(a + 1, 0)).toBeGreaterThan(backoffDelay(a, 0.999999));
  });
});

describe('onCrash', () => {
  it('gives up on the 5th crash within 10 awake minutes', () => {
    let state = initialRestartState();
    const decisions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = onCrash(state, i * 1000, 500, 0.5);
      state = r.state;
      decisions.push(r.decision.kind === 'restart' ? `restart ${r.decision.delayMs}` : r.decision.kind);
    }
    expect(decisions).toEqual(['restart 1000', 'restart 2000', 'restart 4000', 'restart 8000', 'crash-loop']);
  });
  it('forgets crashes older than the window (awake time: a sleep in between does not count)', () => {
    let state = initialRestartState();
    for (let i = 0; i < 4; i++) state = onCrash(state, i * 1000, 500, 0.5).state;
    const late = onCrash(state, P.crashLoopWindowMs + 3500, 500, 0.5);
    expect(late.decision.kind).toBe('restart');
    expect(late.state.crashes).toHaveLength(1);
  });
  it('resets the backoff after 60 s of uptime', () => {
    let state = initialRestartState();
    for (let i = 0; i < 3; i++) state = onCrash(state, i * 1000, 500, 0.5).state;
    const r = onCrash(state, 100_000, 60_000, 0.5);
    expect(r.decision).toEqual({ kind: 'restart', delayMs: 1000 });
  });
});

const exitBase: ExitInput = {
  exit: { code: 1, signal: null },
  userStop: false,
  shuttingDown: false,
  nearSleep: false,
  launch: 'new',
  uptimeMs: 100,
  restart: initialRestartState(),
  now: 1000,
  random: 0.5,
  policy: P,
};

describe('decideOnExit', () => {
  it('exit 0 → finished', () => {
    expect(decideOnExit({ ...exitBase, exit: { code: 0, signal: null } })).toMatchObject({ kind: 'finished', intent: { kind: 'finished' } });
  });
  it('a user stop wins over everything, even a crash status', () => {
    expect(decideOnExit({ ...exitBase, userStop: true, exit: { code: null, signal: 'SIGHUP' } })).toMatchObject({ kind: 'stopped', intent: { kind: 'user-stopped' } });
  });
  it('the supervisor stopping is not a crash', () => {
    expect(decideOnExit({ ...exitBase, shuttingDown: true, exit: { code: null, signal: 'SIGTERM' } }).kind).toBe('supervisor-stopped');
  });
  it('non-zero or a signal → interrupted(crash) with a backoff', () => {
    expect(decideOnExit(exitBase)).toMatchObject({ kind: 'restart', reason: 'crash', delayMs: 1000, countsAsCrash: true, resumeFailed: false });
    expect(decideOnExit({ ...exitBase, exit: { code: null, signal: 'SIGSEGV' } })).toMatchObject({ kind: 'restart', reason: 'crash' });
  });
  it('an exit around a sleep restarts without counting as a crash', () => {
    const d = decideOnExit({ ...exitBase, nearSleep: true });
    expect(d).toMatchObject({ kind: 'restart', reason: 'sleep', countsAsCrash: false });
    expect(d.kind === 'restart' && d.restart.crashes).toEqual([]);
  });
  it('a resume that dies at once is a failed resume; one that ran a while is a crash', () => {
    expect(decideOnExit({ ...exitBase, launch: 'resume', uptimeMs: 2000 })).toMatchObject({ resumeFailed: true });
    expect(decideOnExit({ ...exitBase, launch: 'resume', uptimeMs: RESUME_FAILURE_WINDOW_MS })).toMatchObject({ resumeFailed: false });
  });
  it('a resume ended at once by a signal from outside (a kill, the OOM killer) is a crash, resumed by id again; its own fault is a failed resume', () => {
    for (const signal of ['SIGKILL', 'SIGTERM', 'SIGHUP']) {
      expect(decideOnExit({ ...exitBase, launch: 'resume', uptimeMs: 2000, exit: { code: null, signal } })).toMatchObject({ kind: 'restart', reason: 'crash', resumeFailed: false });
    }
    expect(decideOnExit({ ...exitBase, launch: 'resume', uptimeMs: 2000, exit: { code: null, signal: 'SIGSEGV' } })).toMatchObject({ resumeFailed: true });
  });
  it('the fifth crash asks for attention(crash-loop)', () => {
    const restart = { attempt: 4, crashes: [10, 20, 30, 40] };
    expect(decideOnExit({ ...exitBase, restart })).toMatchObject({ kind: 'attention', reason: 'crash-loop', intent: { kind: 'attention', reason: 'crash-loop' } });
  });
});

describe('which sessions start, and how', () => {
  it('starts new, running and interrupted sessions; never user-stopped, finished or attention', () => {
    const run = (kind: string, autoResume = true) => meantToRun({ intent: (kind === 'interrupted' ? { kind, reason: 'crash' } : kind === 'attention' ? { kind, reason: 'x' } : { kind }) as never, autoResume });
    expect(['new', 'running', 'interrupted'].map((k) => run(k))).toEqual([true, true, true]);
    expect(['user-stopped', 'finished', 'attention'].map((k) => run(k))).toEqual([false, false, false]);
    expect(run('running', false)).toBe(false);
  });
  it('tells a reboot from an app exit by the boot id', () => {
    expect(startupInterruption('a', 'b')).toBe('reboot');
    expect(startupInterruption('a', 'a')).toBe('app-exit');
    expect(startupInterruption(null, 'a')).toBe('app-exit');
  });
  it('re-attaches a live tmux session, starts a new one fresh, relaunches the rest', () => {
    const base = { tmuxAlive: false, hasRun: true, lastBootId: 'a', currentBootId: 'a' };
    expect(startAction({ ...base, intent: { kind: 'running' }, tmuxAlive: true })).toEqual({ kind: 'reattach' });
    expect(startAction({ ...base, intent: { kind: 'new' }, hasRun: false })).toEqual({ kind: 'new' });
    expect(startAction({ ...base, intent: { kind: 'running' } })).toEqual({ kind: 'relaunch', reason: 'app-exit' });
    expect(startAction({ ...base, intent: { kind: 'running' }, currentBootId: 'b' })).toEqual({ kind: 'relaunch', reason: 'reboot' });
    expect(startAction({ ...base, intent: { kind: 'interrupted', reason: 'sleep' } })).toEqual({ kind: 'relaunch', reason: 'sleep' });
  });
  it("says a stopped, finished or attention session came back by the person's start, not by Mori's exit", () => {
    const base = { tmuxAlive: false, hasRun: true, lastBootId: 'a', currentBootId: 'a' };
    for (const intent of [{ kind: 'user-stopped' }, { kind: 'finished' }, { kind: 'attention', reason: 'crash-loop' }] as const)
      expect(startAction({ ...base, intent }), intent.kind).toEqual({ kind: 'relaunch', reason: 'asked' });
  });
});

describe('the state machine', () => {
  it('answers every (state, event) pair: a next state, or impossible — never a throw', () => {
    expect(Object.keys(LIFECYCLE).sort()).toEqual([...RUNTIME_STATES].sort());
    for (const state of RUNTIME_STATES) {
      expect(Object.keys(LIFECYCLE[state]).sort(), state).toEqual([...LIFECYCLE_EVENTS].sort());
      for (const event of LIFECYCLE_EVENTS) {
        const step = nextState(state, event);
        if (step.ok) expect(RUNTIME_STATES, `${state} + ${event}`).toContain(step.to);
        else expect(step, `${state} + ${event}`).toEqual({ ok: false, from: state, event });
      }
    }
  });

  it('allows the lifecycle of DESIGN.md §4', () => {
    const walk = (from: (typeof RUNTIME_STATES)[number], events: LifecycleEvent[]): string[] => {
      const seen: string[] = [from];
      let at = from;
      for (const e of events) {
        const step = nextState(at, e);
        if (!step.ok) throw new Error(`${at} + ${e} is impossible`);
        at = step.to;
        seen.push(at);
      }
      return seen;
    };
    expect(walk('idle', ['launch', 'ran', 'interrupt', 'verify', 'resume', 'ran', 'crashed', 'verify', 'resume', 'ran', 'attention'])).toEqual([
      'idle', 'starting', 'running', 'interrupted', 'verifying', 'resuming', 'running', 'backoff', 'verifying', 'resuming', 'running', 'attention',
    ]);
  });

  it('hears an agent exit in every state where the agent may be alive', () => {
    // An agent that exits 0 while its session is interrupted(network) finishes; one that crashes goes to backoff.
    for (const state of ['starting', 'running', 'interrupted', 'verifying', 'resuming', 'attention'] as const) {
      expect(nextState(state, 'finished'), state).toEqual({ ok: true, to: 'finished' });
      expect(nextState(state, 'crashed'), state).toEqual({ ok: true, to: 'backoff' });
      expect(nextState(state, 'stop'), state).toEqual({ ok: true, to: 'stopped' });
    }
  });

  it('lets a start the person asks for verify a queued launch, and a failing plan in backoff ask for attention', () => {
    expect(nextState('resuming', 'verify')).toEqual({ ok: true, to: 'verifying' });
    expect(nextState('backoff', 'attention')).toEqual({ ok: true, to: 'attention' });
  });

  it('calls nonsense impossible', () => {
    expect(nextState('stopped', 'ran').ok).toBe(false);
    expect(nextState('finished', 'crashed').ok).toBe(false);
    expect(nextState('backoff', 'finished').ok).toBe(false);
    expect(nextState('running', 'launch').ok).toBe(false);
  });
});

describe('checkpoints', () => {
  it('changed only when HEAD or the set of changed files differs', () => {
    const prev = { at: 'x', gitHead: 'abc', changedFiles: ['a', 'b'], snapshot: null };
    expect(checkpointChanged(prev, 'abc', ['b', 'a'])).toBe(false);
    expect(checkpointChanged(prev, 'abd', ['a', 'b'])).toBe(true);
    expect(checkpointChanged(prev, 'abc', ['a'])).toBe(true);
    expect(checkpointChanged(null, null, [])).toBe(false);
    expect(checkpointChanged(null, 'abc', [])).toBe(true);
    const snapshot = { commit: '3f2a9c1d'.padEnd(40, '0'), tree: 'f'.repeat(40), seq: 2 };
    expect(checkpointLogLine(prev, { at: 'y', gitHead: '0123456789abcdef', changedFiles: ['a'], snapshot })).toBe('CHECKPOINT 3f2a9c1 - 1 file changed: a (new commit 0123456789ab)');
    expect(checkpointLogLine(prev, { at: 'y', gitHead: 'abc', changedFiles: ['a', 'b', 'c', 'd'], snapshot })).toBe('CHECKPOINT 3f2a9c1 - 4 files changed: a, b, c, d');
    expect(checkpointLogLine(null, { at: 'y', gitHead: null, changedFiles: [], snapshot: null })).toBe('CHECKPOINT - no git repository; no uncommitted changes');
  });
});

describe('IPC and event schemas', () => {
  it('validate requests, params and server messages', () => {
    expect(IpcRequestEnvelope.safeParse({ id: 1, method: 'stop', params: { session: 'x' } }).success).toBe(true);
    expect(IpcRequestEnvelope.safeParse({ id: 1, method: 'rm -rf', params: {} }).success).toBe(false);
    expect(parseParams('send', { session: 'x', text: 'hi' })).toEqual({ ok: true, value: { session: 'x', text: 'hi', enter: true } });
    expect(parseParams('attach', { session: 'x', cols: 0, rows: 10 }).ok).toBe(false);
    expect(IpcServerMessage.safeParse({ kind: 'reply', id: 2, ok: false, code: 'not-found', message: 'no' }).success).toBe(true);
    expect(IpcServerMessage.safeParse({ kind: 'reply', id: 2, ok: false, code: 'boom', message: 'no' }).success).toBe(false);
    const ev = { type: 'session.activity', at: 1, sessionId: 's', name: 'n', from: 'working', to: 'waiting' };
    expect(SupervisorEvent.safeParse(ev).success).toBe(true);
    expect(SupervisorEvent.safeParse({ ...ev, to: 'dancing' }).success).toBe(false);
  });
});
