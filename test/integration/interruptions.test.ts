// Interruptions end to end (DESIGN.md §4, §8): a real `mori up` and its agent frozen with SIGSTOP
// (as a laptop sleep freezes them), a probe target that goes away and comes back, a reboot faked by
// a new boot id, and injected power events for the odd orders real machines produce.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { DEFAULT_SETTLE_MS } from '../../main/agents/activity-debouncer.js';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../common/events.js';
import { createPowerWatch, type PowerWatch } from '../../main/power/power-watch.js';
import { InterruptionOrchestrator } from '../../main/daemon/interruption-orchestrator.js';
import { CHECKPOINT_CONCURRENCY } from '../../main/supervisor/checkpoints/checkpoint.js';
import { Supervisor } from '../../main/supervisor/supervisor.js';
import { hasEvent, UpHarness } from '../support/mori-up.js';
import { until } from '../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

const count = (text: string, re: RegExp): number => (text.match(new RegExp(re, 'g')) ?? []).length;

function listen(port = 0): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((s) => s.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (s: net.Server): number => (s.address() as net.AddressInfo).port;
const close = (s: net.Server): Promise<void> => new Promise((r) => s.close(() => r()));

describe('sleep', () => {
  it('a supervisor and agent frozen for 10 s report the wake, verify and resume within 3 s', async () => {
    h = new UpHarness('sleep');
    h.init('sl', 'direct');
    const u = h.up();
    // At its prompt after its first turn, its answer written: a waiting said as it starts (the
    // SessionStart hook) can come before that turn, and a freeze during it finds the agent working.
    const activities = (): unknown[] => u.lines().filter((e) => e['type'] === 'session.activity').map((e) => e['to']);
    // The fake agent writes its answer to its transcript as the turn ends.
    const transcribed = (): boolean => {
      const dir = path.join(h!.tmp, 'claude', 'projects');
      const files = existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl')) : [];
      return files.some((f) => readFileSync(path.join(dir, f), 'utf8').includes('"type":"assistant"'));
    };
    await until('the agent at its prompt after its first turn', () => transcribed() && activities().at(-1) === 'waiting', u.stderr);
    // And its screen read since: a screen reading still settling when the supervisor is frozen is taken
    // as settled at the wake (the clock moved on meanwhile), as a spinner seen just before the freeze.
    await new Promise((r) => setTimeout(r, 2 * DEFAULT_SETTLE_MS));
    expect(activities().at(-1)).toBe('waiting');
    const agent = h.starts()[0]!.pid;
    const upPid = u.child.pid!;
    // Freeze the agent's whole process group and the supervisor, as a suspend freezes every process.
    process.kill(-agent, 'SIGSTOP');
    process.kill(upPid, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 10_000));
    const continued = Date.now();
    process.kill(-agent, 'SIGCONT');
    process.kill(upPid, 'SIGCONT');
    await until('the resume', () => hasEvent(u, 'session.resumed'), u.stderr, 10_000);
    const took = Date.now() - continued;
    expect(took).toBeLessThan(3_000);
    const types = u.lines().map((e) => e['type']);
    const order = ['power.suspend', 'session.interrupted', 'power.resume', 'verify.started', 'verify.finished', 'session.resumed'].map((t) => types.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const resume = u.lines().find((e) => e['type'] === 'power.resume')!;
    expect(resume['sleptMs']).toBeGreaterThan(8_000);
    const log = h.workLog('sl');
    expect(log).toMatch(/SESSION INTERRUPTED - system sleep/);
    expect(log).toMatch(/SESSION RESUMED - system sleep \(away 1\ds\); (?:checks [^;]*|no checks to run[^;]*); agent still running, waiting: nudged to continue/);
    expect(h.starts()).toHaveLength(1); // the same agent, nudged, not relaunched
  }, 60_000);
});

describe('network', () => {
  it('sessions go interrupted when the probe target goes away and come back once, without flapping', async () => {
    let server = await listen();
    const port = portOf(server);
    h = new UpHarness('net', { MORI_PROBE: `127.0.0.1:${port}`, MORI_PROBE_INTERVAL_MS: '1000' });
    h.init('nw', 'direct');
    const u = h.up();
    await until('the agent to wait', () => hasEvent(u, 'session.activity', { to: 'waiting' }), u.stderr);
    await close(server);
    await until('offline', () => hasEvent(u, 'session.interrupted', { reason: 'network' }), u.stderr);
    expect(hasEvent(u, 'network.offline')).toBe(true);
    server = await listen(port);
    try {
      await until('the resume', () => hasEvent(u, 'session.resumed'), u.stderr);
      // Steady again: no second offline, interruption or resume for a few probe rounds.
      await new Promise((r) => setTimeout(r, 6_000));
      const types = u.lines().map((e) => e['type']);
      expect(types.filter((t) => t === 'network.offline')).toHaveLength(1);
      expect(types.filter((t) => t === 'network.online')).toHaveLength(1);
      expect(types.filter((t) => t === 'session.interrupted')).toHaveLength(1);
      expect(types.filter((t) => t === 'session.resumed')).toHaveLength(1);
      const log = h.workLog('nw');
      expect(count(log, /SESSION INTERRUPTED - network lost/)).toBe(1);
      expect(log).toMatch(/SESSION RESUMED - network lost \(away \d+s\); (?:checks|no checks)/);
    } finally {
      await close(server);
    }
  }, 90_000);
});

describe('reboot', () => {
  it('relaunches direct sessions with their resume command and id, staggered, failing checks first in the prompt', async () => {
    h = new UpHarness('reboot', { MORI_BOOT_ID: 'boot-a' });
    h.init('r1', 'direct');
    h.init('r2', 'direct');
    // A service the work needs, down after the reboot: a loopback port nobody listens on.
    const gone = await listen();
    const port = portOf(gone);
    await close(gone);
    appendFileSync(path.join(h.stateDir('r1'), 'environment.md'), `\n## Checks\n- tcp: 127.0.0.1:${port}\n`);
    const first = h.up();
    // Each agent waiting (each, not two waits of one): it has written its transcript, so each can be
    // resumed by id.
    const waiting = (name: string): boolean => first.lines().some((e) => e['type'] === 'session.activity' && e['to'] === 'waiting' && e['name'] === name);
    // And each transcript on disk: a waiting said by the SessionStart hook can come while the agent
    // is still about to write it, and an agent killed then has nothing to resume.
    const transcripts = (): string[] => {
      const dir = path.join(h!.tmp, 'claude', 'projects');
      return existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).map((f) => path.basename(f)) : [];
    };
    await until('both agents', () => h!.starts().length === 2 && waiting('r1') && waiting('r2') && h!.starts().every((s) => transcripts().includes(`${s.sessionId}.jsonl`)), first.stderr);
    first.child.kill('SIGKILL');
    await first.exited;

    const stagger = 1500;
    const second = h.up([], { MORI_BOOT_ID: 'boot-b', MORI_START_STAGGER_MS: String(stagger) });
    await until('both relaunches', () => h!.starts().length === 4 && second.lines().filter((e) => e['type'] === 'session.resumed').length === 2, second.stderr);
    const [a1, a2, b1, b2] = h.starts() as (ReturnType<UpHarness['starts']>[number] & { prompt: string | null; at: number })[];
    const firstIds = [a1!.sessionId, a2!.sessionId];
    for (const b of [b1!, b2!]) {
      expect(b.argv.slice(0, 2)[0]).toBe('--resume');
      expect(firstIds).toContain(b.resumeId);
    }
    expect(b1!.resumeId).not.toBe(b2!.resumeId);
    expect(Math.abs(b2!.at - b1!.at)).toBeGreaterThanOrEqual(stagger - 100);
    for (const name of ['r1', 'r2']) {
      expect(h.workLog(name)).toMatch(/SESSION INTERRUPTED - reboot/);
      expect(h.workLog(name)).toMatch(/SESSION RESUMED - reboot; (?:checks [^;]*|no checks to run[^;]*); agent relaunched with its resume command/);
    }
    const r1Id = a1!.argv.includes('--session-id') ? a1!.sessionId : a2!.sessionId;
    const r1Resume = [b1!, b2!].find((b) => b.prompt?.includes(`127.0.0.1:${port}`)) ?? null;
    expect(r1Resume, 'the r1 relaunch carries the failed check').not.toBeNull();
    expect(r1Id).toBeTruthy();
    const prompt = r1Resume!.prompt!;
    expect(prompt).toMatch(/interrupted by a reboot/);
    const fail = prompt.indexOf(`FAIL: tcp 127.0.0.1:${port}`);
    expect(fail).toBeGreaterThan(0);
    // The failing check comes before the task and the log: the first thing the agent reads after the headline.
    for (const later of ['Current task:', 'Recent work log:']) {
      const at = prompt.indexOf(later);
      if (at >= 0) expect(fail).toBeLessThan(at);
    }
  }, 90_000);
});

describe('injected power events', () => {
  let sup: Supervisor | null = null;
  let power: PowerWatch | null = null;
  let orch: InterruptionOrchestrator | null = null;
  afterEach(async () => {
    orch?.dispose();
    power?.dispose();
    await sup?.shutdown();
    sup = null;
  });

  it('a doubled suspend and a resume without a suspend each give one interruption and one resume', async () => {
    h = new UpHarness('inject');
    h.init('ij', 'direct');
    const env = { ...process.env, ...h.env };
    sup = new Supervisor({ home: h.home, env, tmux: null, startStaggerMs: 0 });
    const events: SupervisorEvent[] = [];
    sup.on((e) => events.push(e));
    const started = await sup.start();
    expect(started.ok).toBe(true);
    await until('the agent to wait', () => events.some((e) => e.type === 'session.activity' && e.to === 'waiting'));
    power = createPowerWatch({ env: { MORI_PROBE: 'none' } });
    orch = new InterruptionOrchestrator(sup, power);
    const of = (t: string) => events.filter((e) => e.type === t).length;

    // A resume with no suspend before it (the suspend notice never came): one pair, one resume.
    power.feed({ type: 'resume', source: 'powerMonitor', sleptMs: 60_000 });
    await until('the first resume', () => of('session.resumed') === 1);
    await orch.idle();
    expect([of('power.suspend'), of('session.interrupted'), of('power.resume'), of('session.resumed')]).toEqual([1, 1, 1, 1]);

    // Both sources report the same sleep, each twice over: still one pair, one resume.
    power.feed({ type: 'suspend', source: 'powerMonitor' });
    power.feed({ type: 'suspend', source: 'drift' });
    power.feed({ type: 'resume', source: 'powerMonitor', sleptMs: 5_000 });
    power.feed({ type: 'resume', source: 'drift', sleptMs: 5_000 });
    await until('the second resume', () => of('session.resumed') === 2);
    await orch.idle();
    await new Promise((r) => setTimeout(r, 500));
    expect([of('power.suspend'), of('session.interrupted'), of('power.resume'), of('session.resumed')]).toEqual([2, 2, 2, 2]);
    const log = h.workLog('ij');
    expect(count(log, /SESSION INTERRUPTED - system sleep/)).toBe(2);
    expect(count(log, /SESSION RESUMED - system sleep/)).toBe(2);
    expect(h.starts(), log).toHaveLength(1);
  }, 60_000);

  it("starts no checkpoint waiting for its turn while a wake's resumes are under way; those running go on", async () => {
    // The session's check answers after 1.5 s: its resume is under way that long after the wake.
    const slow = http.createServer((_req, res) => void setTimeout(() => res.end('ok'), 1_500));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    h = new UpHarness('hold');
    h.init('ho', 'direct');
    appendFileSync(path.join(h.stateDir('ho'), 'environment.md'), `\n## Checks\n- url: http://127.0.0.1:${portOf(slow as unknown as net.Server)}/\n`);
    const env = { ...process.env, ...h.env };
    sup = new Supervisor({ home: h.home, env, tmux: null, startStaggerMs: 0 });
    const events: { type: string; at: number }[] = [];
    sup.on((e) => events.push({ type: e.type, at: Date.now() }));
    expect((await sup.start()).ok).toBe(true);
    await until('the agent to wait', () => events.some((e) => e.type === 'session.activity'));
    power = createPowerWatch({ env: { MORI_PROBE: 'none' } });
    orch = new InterruptionOrchestrator(sup, power);
    // Checkpoint work as the suspend leaves it: every slot taken, one more waiting its turn.
    const running: (() => void)[] = [];
    const busy = Array.from({ length: CHECKPOINT_CONCURRENCY }, () => sup!.checkpointPorts.limiter.run(() => new Promise<void>((r) => running.push(r))));
    let waitingStartedAt = 0;
    const waiting = sup.checkpointPorts.limiter.run(async () => {
      waitingStartedAt = Date.now();
    });
    power.feed({ type: 'suspend', source: 'test' });
    power.feed({ type: 'resume', source: 'test', sleptMs: 1_000 });
    await until('the verification to start', () => events.some((e) => e.type === 'verify.started'));
    // The running ones end mid-resume: their slots are not given to the one waiting.
    for (const end of running) end();
    await Promise.all(busy);
    await until('the resume action', () => events.some((e) => e.type === 'session.resuming'), undefined, 20_000);
    await waiting;
    const resumingAt = events.find((e) => e.type === 'session.resuming')?.at ?? NaN;
    expect(waitingStartedAt).toBeGreaterThanOrEqual(resumingAt);
    await orch.idle();
    await new Promise<void>((r) => slow.close(() => r()));
  }, 60_000);

  it('an agent stuck on a connection error after the wake is nudged, then restarted with its resume command: one SESSION RESUMED, the restart a note', async () => {
    h = new UpHarness('stuck', { FAKE_AGENT_SCRIPT: 'offline' });
    h.init('st', 'direct');
    const env = { ...process.env, ...h.env };
    sup = new Supervisor({ home: h.home, env, tmux: null, startStaggerMs: 0, stuckAfterWakeMs: 1_500 });
    const events: SupervisorEvent[] = [];
    sup.on((e) => events.push(e));
    expect((await sup.start()).ok).toBe(true);
    await until('the error screen', () => events.some((e) => e.type === 'session.activity' && e.to === 'error'));
    power = createPowerWatch({ env: { MORI_PROBE: 'none' } });
    orch = new InterruptionOrchestrator(sup, power);
    power.feed({ type: 'suspend', source: 'test' });
    power.feed({ type: 'resume', source: 'test', sleptMs: 30_000 });
    await until('the restart', () => h!.starts().length === 2);
    const [first, second] = h.starts();
    expect(second!.argv.slice(0, 2)).toEqual(['--resume', first!.sessionId]);
    const log = h.workLog('st');
    expect(log).toMatch(/agent still running, error: nudged to continue/);
    expect(log).toMatch(/agent stuck on an error after the wake: restarted; agent relaunched with its resume command/);
    // One interruption, one SESSION RESUMED (the nudge's): the restart after it is a follow-up, noted.
    const afterNudge = log.slice(log.indexOf('nudged to continue'));
    expect(count(afterNudge, /SESSION RESUMED - /)).toBe(0);
    expect(afterNudge).toMatch(/SESSION NOTE - after the resume from system sleep: agent stuck on an error after the wake: restarted; agent relaunched with its resume command/);
    expect(count(log, /SESSION RESUMED - /)).toBe(1);
    expect(events.filter((e) => e.type === 'session.resumed')).toHaveLength(1);
  }, 60_000);
});
