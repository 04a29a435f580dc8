// What the supervisor stores and reads back, for real in this process (fake agent in real ptys, real
// files): a state file it cannot write is attention(state-unwritable) with the path and the OS error,
// shown by `mori ls`, and a stop that could not be written is still honoured by the next supervisor;
// the crash history survives a supervisor restart, so five crashes across two supervisors are a
// crash loop; a verification whose only unrun check is untrusted passed.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../common/events.js';
import { createPowerWatch, type PowerWatch } from '../../../main/power/power-watch.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { InterruptionOrchestrator } from '../../../main/daemon/interruption-orchestrator.js';
import { Supervisor, type SupervisorOptions } from '../../../main/supervisor/supervisor.js';
import { runMori } from '../../../testkit/mori-cli.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';
import { until as waitUntil } from '../../../testkit/until.js';

/** Generous: two cores shared with other test runs. */
const DEADLINE_MS = 25_000;

let h: SupervisorHarness;
let events: SupervisorEvent[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-state');
  events = h.events;
});
afterEach(() => h.cleanup());

const env = (extra: Record<string, string> = {}): Record<string, string | undefined> => h.env(extra);
const session = (name: string): Promise<string> => h.session(name);
const supervisor = (opts: SupervisorOptions): Supervisor => h.supervisor(opts);
const starts = (): unknown[] => h.starts();

const until = (what: string, ok: () => boolean): Promise<void> => waitUntil(what, ok, () => `events: ${events.map((e) => e.type).join(', ')}`, DEADLINE_MS, 25);

describe('state the supervisor writes', () => {
  it('a stop that cannot be written is attention(state-unwritable), shown by mori ls, and still honoured next start', async () => {
    const dir = await session('unwritable');
    const s = supervisor({ env: env(), verify: false });
    expect((await s.start()).ok).toBe(true);
    await until('the agent runs', () => starts().length === 1 && s.list()[0]?.state === 'running');
    // session.json's backup is written before every change: make it a directory, and every write fails.
    rmSync(path.join(dir, 'session.json.bak'), { force: true });
    mkdirSync(path.join(dir, 'session.json.bak'));
    await s.stopSession('unwritable');
    await until('attention', () => events.some((e) => e.type === 'session.attention'));
    const attention = events.find((e) => e.type === 'session.attention');
    expect(attention).toMatchObject({ reason: 'state-unwritable' });
    expect(attention && 'message' in attention && attention.message).toMatch(/session\.json\.bak/);
    expect(attention && 'message' in attention && attention.message).toMatch(/EISDIR/);
    // session.json still says running: only the record in the Mori home knows the stop.
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'running' });
    const ls = runMori(['ls'], { home: h.home });
    expect(ls.stdout).toMatch(/attention \(state-unwritable\): .*EISDIR/);
    await s.shutdown();

    const again = supervisor({ env: env(), verify: false });
    expect((await again.start()).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(starts()).toHaveLength(1);
    expect(again.list()[0]?.state).toBe('stopped');
  });

  it('remembers crashes across a supervisor restart: the fifth crash overall is a crash loop', async () => {
    const dir = await session('crashy');
    const crashing = env({ FAKE_AGENT_SCRIPT: 'exit:1' });
    const first = supervisor({ env: crashing, policy: { baseDelayMs: 100 }, random: () => 0.5, verify: false });
    expect((await first.start()).ok).toBe(true);
    await until('three starts', () => starts().length === 3);
    await first.shutdown();
    const file = readSessionFile(dir);
    // Two or three crashes, depending on whether the third agent crashed before the shutdown.
    const recorded = file.ok ? file.value.restartHistory.length : 0;
    expect(recorded).toBeGreaterThanOrEqual(2);

    h.forgetEvents();
    const second = supervisor({ env: crashing, policy: { baseDelayMs: 100 }, random: () => 0.5, verify: false });
    expect((await second.start()).ok).toBe(true);
    await until('attention', () => events.some((e) => e.type === 'session.attention'));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(events.find((e) => e.type === 'session.attention')).toMatchObject({ reason: 'crash-loop' });
    // Five crashes in all: the second supervisor starts the agent only as often as the first left over.
    expect(starts()).toHaveLength(3 + (5 - recorded));
  });
});

describe('failures on the way back', () => {
  it('a relaunch whose plan fails while in backoff asks for attention (no verification), never throws', async () => {
    const dir = await session('badplan');
    const s = supervisor({ env: env({ FAKE_AGENT_SCRIPT: 'exit:1' }), policy: { baseDelayMs: 1_500 }, random: () => 0.5, verify: false });
    expect((await s.start()).ok).toBe(true);
    await until('the crash', () => events.some((e) => e.type === 'session.interrupted' && e.retryInMs !== null));
    expect(s.list()[0]?.state).toBe('backoff');
    // The resume prompt cannot be built: session_state.md cannot be read.
    rmSync(path.join(dir, 'session_state.md'), { force: true });
    mkdirSync(path.join(dir, 'session_state.md'));
    await until('attention', () => events.some((e) => e.type === 'session.attention'));
    expect(events.find((e) => e.type === 'session.attention')).toMatchObject({ reason: 'launch-failed' });
    expect(s.list()[0]?.state).toBe('attention');
    expect(starts()).toHaveLength(1);
  });
});

describe('verification', () => {
  let power: PowerWatch | null = null;
  let orch: InterruptionOrchestrator | null = null;
  afterEach(() => {
    orch?.dispose();
    power?.dispose();
  });

  it('passes when nothing failed or timed out, even with an untrusted command not run', async () => {
    const dir = await session('untrusted');
    appendFileSync(path.join(dir, 'environment.md'), '\n## Checks\n- command: `true`\n');
    const e = env({ MORI_PROBE: 'none' });
    const s = supervisor({ env: e });
    expect((await s.start()).ok).toBe(true);
    await until('the agent waits', () => events.some((x) => x.type === 'session.activity' && x.to === 'waiting'));
    power = createPowerWatch({ env: { MORI_PROBE: 'none' } });
    orch = new InterruptionOrchestrator(s, power);
    power.feed({ type: 'suspend', source: 'test' });
    power.feed({ type: 'resume', source: 'test', sleptMs: 5_000 });
    await until('the resume', () => events.some((x) => x.type === 'session.resumed'));
    const finished = events.find((x) => x.type === 'verify.finished');
    expect(finished && 'summary' in finished && finished.summary).toMatch(/needs trust/);
    expect(finished).toMatchObject({ ok: true });
  });
});
