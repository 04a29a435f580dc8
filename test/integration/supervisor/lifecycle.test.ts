// The Supervisor for real, in this process: the fake agent in real direct ptys, real state files,
// real git. Covers the crash loop (growing delays, attention after 5, never a 6th spawn), a user
// stop never followed by a restart, exit 0 → finished, activity events from the screen, and a
// relaunch with the resume command and the same agent session id.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../common/events.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { readTailEntries } from '../../../main/state/work-log.js';
import { Supervisor, type SupervisorOptions } from '../../../main/supervisor/supervisor.js';
import { FAKE_AGENT, SupervisorHarness } from '../../support/supervisor-harness.js';
import { until as waitUntil } from '../../../testkit/until.js';

/** The git on PATH, for a slow stand-in to hand over to. */
const REAL_GIT = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
/** Generous: two cores shared with other test runs. */
const DEADLINE_MS = 20_000;

let h: SupervisorHarness;
let events: SupervisorEvent[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-life');
  events = h.events;
});
afterEach(() => h.cleanup());

const agentEnv = (extra: Record<string, string> = {}): Record<string, string | undefined> => h.env(extra);
const session = (name: string): Promise<string> => h.session(name);
const supervisor = (opts: SupervisorOptions): Supervisor => h.supervisor(opts);
const starts = (): { argv: string[]; sessionId: string | null; resumeId: string | null; at: number }[] => h.starts();

const until = (what: string, ok: () => boolean): Promise<void> => waitUntil(what, ok, () => `events: ${events.map((e) => e.type).join(', ')}`, DEADLINE_MS, 25);

describe('Supervisor', () => {
  it('restarts a crashing agent with growing delays and stops after 5 crashes with attention(crash-loop)', async () => {
    const dir = await session('crashy');
    const s = supervisor({ env: agentEnv({ FAKE_AGENT_SCRIPT: 'exit:1' }), policy: { baseDelayMs: 100, maxDelayMs: 5_000 }, random: () => 0.5, verify: false });
    const started = await s.start();
    expect(started.ok).toBe(true);
    await until('attention', () => events.some((e) => e.type === 'session.attention'));
    // Some time for a (wrong) sixth spawn to show up.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(starts()).toHaveLength(5);
    const delays = events.flatMap((e) => (e.type === 'session.interrupted' && e.retryInMs !== null ? [e.retryInMs] : []));
    expect(delays).toEqual([100, 200, 400, 800]);
    const attention = events.find((e) => e.type === 'session.attention');
    expect(attention).toMatchObject({ reason: 'crash-loop' });
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'attention', reason: 'crash-loop' });
    expect(file.ok && file.value.restartHistory).toHaveLength(4);
    expect(file.ok && file.value.lastExit?.code).toBe(1);
    // Each spawn waited out its delay: the gap between spawns is at least the delay before it (a
    // slow start on a busy machine can make an early gap longer than a later one, so gaps are not compared).
    const times = starts().map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    gaps.forEach((gap, i) => expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(delays[i] as number));
    expect(readTailEntries(dir, 1)[0]?.lines.join(' ')).toMatch(/SESSION NEEDS ATTENTION - crash-loop/);
  });

  it('never restarts a session the user stopped', async () => {
    const dir = await session('stopme');
    const s = supervisor({ env: agentEnv(), policy: { baseDelayMs: 50 }, verify: false });
    await s.start();
    await until('the agent runs', () => starts().length === 1);
    const stopped = await s.stopSession('stopme');
    expect(stopped.ok && stopped.value.state).toBe('stopped');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(starts()).toHaveLength(1);
    expect(events.filter((e) => e.type === 'session.started')).toHaveLength(1);
    expect(events.some((e) => e.type === 'session.exited' && e.outcome === 'stopped')).toBe(true);
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'user-stopped' });
    // A new supervisor does not start it either.
    await s.shutdown();
    h.forgetEvents();
    const again = supervisor({ env: agentEnv(), verify: false });
    await again.start();
    await new Promise((r) => setTimeout(r, 500));
    expect(starts()).toHaveLength(1);
    expect(again.list()[0]?.state).toBe('stopped');
  });

  it('treats exit 0 as finished, and reports activity transitions once each', async () => {
    const dir = await session('done');
    const s = supervisor({ env: agentEnv(), verify: false });
    await s.start();
    await until('waiting', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    await s.send('done', 'ask');
    await until('needs-input', () => events.some((e) => e.type === 'session.activity' && e.to === 'needs-input'));
    await s.send('done', 'exit:0');
    await until('finished', () => events.some((e) => e.type === 'session.exited'));
    expect(events.find((e) => e.type === 'session.exited')).toMatchObject({ outcome: 'finished', code: 0 });
    const transitions = events.flatMap((e) => (e.type === 'session.activity' ? [`${e.from}>${e.to}`] : []));
    for (let i = 1; i < transitions.length; i++) expect(transitions[i]).not.toBe(transitions[i - 1]);
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'finished' });
    await new Promise((r) => setTimeout(r, 500));
    expect(starts()).toHaveLength(1);
  });

  it('relaunches a crashed agent with its resume command and the same agent session id', async () => {
    await session('resumer');
    const s = supervisor({ env: agentEnv(), policy: { baseDelayMs: 100 } });
    await s.start();
    await until('working then waiting', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    await s.send('resumer', 'crash');
    await until('resumed', () => events.some((e) => e.type === 'session.resumed') && starts().length === 2);
    const [first, second] = starts();
    expect(first?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.resumeId).toBe(first?.sessionId);
    expect(second?.argv.slice(0, 2)).toEqual(['--resume', first?.sessionId]);
    expect(events.some((e) => e.type === 'verify.finished')).toBe(true);
    expect(events.find((e) => e.type === 'session.resumed')).toMatchObject({ launch: 'resume' });
  });

  it('writes a checkpoint on its interval while the agent prints, with git HEAD and changed files, logging only changes', async () => {
    const dir = await session('cp');
    const s = supervisor({ env: agentEnv(), verify: false, checkpointIntervalMs: 300 });
    await s.start();
    const checkpoints = () => events.flatMap((e) => (e.type === 'checkpoint.written' ? [e] : []));
    await until('a first checkpoint', () => checkpoints().length >= 1);
    await until('the agent to wait', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    // The agent waits and prints nothing: once the interval that saw its prompt drawn has passed,
    // five more go by without a checkpoint (each would cost three gits for nothing).
    await new Promise((r) => setTimeout(r, 700));
    const quiet = checkpoints().length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(checkpoints()).toHaveLength(quiet);
    // The agent edits a file (and says so): the next interval's checkpoint has it.
    await s.send('cp', 'edit:new-file.txt=x');
    await until('a changed checkpoint', () => checkpoints().some((c) => c.changed && c.changedFiles === 1));
    // It prints again without changing anything: a checkpoint is taken, unchanged, and not logged.
    await s.send('cp', 'print:nothing new');
    await until('an unchanged checkpoint', () => checkpoints().slice(quiet).some((c) => !c.changed && c.changedFiles === 1));
    const file = readSessionFile(dir);
    expect(file.ok && file.value.lastCheckpoint?.changedFiles).toEqual(['new-file.txt']);
    expect(file.ok && file.value.lastCheckpoint?.gitHead).toMatch(/^[0-9a-f]{40}$/);
    const log = readFileSync(path.join(dir, 'work_log.md'), 'utf8');
    // One entry per checkpoint that changed something (the first, the new file); none for the unchanged ones.
    const changed = checkpoints().filter((c) => c.changed).length;
    expect(changed).toBeGreaterThanOrEqual(2);
    expect(checkpoints().length).toBeGreaterThan(changed);
    expect(log.match(/CHECKPOINT [0-9a-f]{7,} - /g)).toHaveLength(changed);
    expect(log).toMatch(/CHECKPOINT [0-9a-f]{7,} - 1 file changed: new-file.txt/);
  });

  it('shuts down only once a checkpoint begun before it is written (an exit checkpoint behind a slow git)', async () => {
    const dir = await session('late');
    const s = supervisor({ env: agentEnv(), verify: false });
    await s.start();
    await until('waiting', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    const before = events.filter((e) => e.type === 'checkpoint.written').length;
    const earlier = readSessionFile(dir);
    const earlierAt = earlier.ok ? earlier.value.lastCheckpoint?.at : undefined;
    // From here on every git this process runs waits 0.3 s first: a slow repository.
    const calls = path.join(h.tmp, 'slow-git-calls');
    const bin = path.join(h.tmp, 'slow-git-bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${calls}'\nsleep 0.3\nexec '${REAL_GIT}' "$@"\n`, { mode: 0o755 });
    const savedPath = process.env['PATH'];
    process.env['PATH'] = `${bin}${path.delimiter}${savedPath ?? ''}`;
    try {
      await s.send('late', 'exit:0');
      await until('the exit checkpoint to begin', () => existsSync(calls));
      await s.shutdown();
      // The session had ended, so shutting down took no checkpoint of its own: the exit's was waited for.
      expect(events.filter((e) => e.type === 'checkpoint.written').length).toBe(before + 1);
      const file = readSessionFile(dir);
      expect(file.ok && file.value.lastCheckpoint?.at).not.toBe(earlierAt);
    } finally {
      process.env['PATH'] = savedPath;
    }
  });

  it('interrupts and resumes a live agent through the entry points the power layer calls: waiting → nudged', async () => {
    const dir = await session('nudge');
    const s = supervisor({ env: agentEnv(), verify: false });
    await s.start();
    await until('waiting', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    // Its status file says idle before it takes the task: the nudge waits for the task's turn to end
    // (a nudge into a working agent is not typed), so the interruption comes after the turn's Stop.
    await until('the first turn to end', () => readFileSync(h.record, 'utf8').includes('"name":"Stop"'));
    // The supervisor's reading of that turn may come late (it settles over 1.5 s): the interruption
    // comes once it reads the agent waiting and has said nothing new for 2 s.
    let lastCount = -1;
    let quietSince = Date.now();
    await until('the reading to settle at waiting', () => {
      const acts = events.filter((e) => e.type === 'session.activity');
      if (acts.length !== lastCount) {
        lastCount = acts.length;
        quietSince = Date.now();
      }
      return s.list().find((x) => x.name === 'nudge')?.activity === 'waiting' && Date.now() - quietSince >= 2_000;
    });
    const interrupted = s.interruptSession('nudge', 'network');
    expect(interrupted.ok && interrupted.value.state).toBe('interrupted');
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'interrupted', reason: 'network' });
    const resumed = await s.resumeSession('nudge', 'network');
    // The nudge is issued; the session is running once the agent took it (echoed, went busy).
    expect(resumed.ok && resumed.value.state).toBe('resuming');
    await until('the nudge to be typed', () => readFileSync(h.record, 'utf8').includes('You were interrupted'));
    await until('the nudge taken', () => events.some((e) => e.type === 'session.resumed'));
    expect(s.list().find((x) => x.name === 'nudge')?.state).toBe('running');
    expect(starts()).toHaveLength(1);
    const log = readFileSync(path.join(dir, 'work_log.md'), 'utf8');
    expect(log).toMatch(/SESSION INTERRUPTED - network lost/);
    expect(log).toMatch(/SESSION RESUMED - network lost; agent still running, waiting: nudged to continue/);
  });

  it('never retries a resume that failed: the next launch is fresh, and the failure is remembered in session.json', async () => {
    const dir = await session('badresume');
    const s = supervisor({ env: agentEnv({ FAKE_AGENT_FAIL_RESUME: '1' }), policy: { baseDelayMs: 100 }, random: () => 0.5, verify: false });
    expect((await s.start()).ok).toBe(true);
    await until('the agent to wait', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    expect((await s.send('badresume', 'crash')).ok).toBe(true);
    await until('a fresh start after the failed resume', () => starts().length === 3);
    const [first, resumed, fresh] = starts();
    expect(resumed!.argv.slice(0, 2)).toEqual(['--resume', first!.sessionId]);
    expect(fresh!.argv[0]).toBe('--session-id');
    expect(fresh!.sessionId).not.toBe(first!.sessionId);
    const file = readSessionFile(dir);
    expect(file.ok && file.value.failedResume).toEqual({ file: FAKE_AGENT, agentSessionId: first!.sessionId });
    expect(events.some((e) => e.type === 'session.exited' && e.outcome === 'resume-failed')).toBe(true);
  });

  it('resumes by id again an agent killed from outside at once after its resume: a kill is no failed resume', async () => {
    const dir = await session('killed');
    const s = supervisor({ env: agentEnv(), policy: { baseDelayMs: 100 }, random: () => 0.5, verify: false });
    expect((await s.start()).ok).toBe(true);
    await until('the agent to wait', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    expect((await s.send('killed', 'crash')).ok).toBe(true);
    await until('the resume', () => starts().length === 2);
    process.kill((starts()[1] as unknown as { pid: number }).pid, 'SIGKILL');
    await until('the next start', () => starts().length === 3);
    const [first, resumed, again] = starts();
    expect(resumed!.argv.slice(0, 2)).toEqual(['--resume', first!.sessionId]);
    expect(again!.argv.slice(0, 2)).toEqual(['--resume', first!.sessionId]);
    const file = readSessionFile(dir);
    expect(file.ok && file.value.failedResume).toBeNull();
    expect(readFileSync(path.join(dir, 'work_log.md'), 'utf8')).not.toContain('resume failed');
  });
});
