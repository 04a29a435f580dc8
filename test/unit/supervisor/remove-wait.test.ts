// Removing a session waits for its stopped agent's exit on the supervisor's clock
// (main/supervisor/session/session-admin.ts): agents in the in-memory backend
// (test/support/fakes/fake-backend.ts), time the manual clock, state files real files in a temporary home.
// An exit that comes late but within the wait lets the removal go on; an agent that never exits
// leaves everything in place with a clear reason, once the whole wait is over and not before.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { FakeBackend, type FakeTerminal } from '../../support/fakes/fake-backend.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';
import { until } from '../../../testkit/until.js';

/** The removal's wait for the exit (STOP_WAIT_MS in session-admin.ts). */
const STOP_WAIT_MS = 15_000;
/** Manual time's step while the removal is pending: its poll is 50 ms. */
const STEP_MS = 50;

let h: SupervisorHarness;
let time: ManualTime;
let backend: FakeBackend;
let made: Supervisor[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-remove');
  time = new ManualTime();
  backend = new FakeBackend();
  made = [];
});
afterEach(async () => {
  for (const s of made) await s.checkpointsSettled();
  await h.cleanup();
});

/** A supervisor running one session whose agent does not end when killed (its exit is the test's to give). */
async function running(name: string): Promise<{ s: Supervisor; dir: string; t: FakeTerminal }> {
  const dir = await h.session(name);
  const s = h.supervisor({ env: h.env(), direct: backend, clock: time, scheduler: time, verify: false, checkpointIntervalMs: 24 * 60 * 60_000 });
  made.push(s);
  expect((await s.start()).ok).toBe(true);
  await until('the launch', () => backend.launches.length === 1 && s.list()[0]?.state === 'running');
  const t = backend.last;
  t.kill = () => Promise.resolve({ code: null, signal: 'SIGHUP' });
  return { s, dir, t };
}

describe('removing a running session', () => {
  it('goes on once the stopped agent exits, though it took seconds', async () => {
    const { s, dir, t } = await running('late');
    let settled = false;
    const removal = s.admin.remove('late', true).finally(() => (settled = true));
    // Ten seconds on the manual clock, then the exit.
    for (let waited = 0; waited < 10_000; waited += STEP_MS) {
      await new Promise((r) => setImmediate(r));
      time.advance(STEP_MS);
    }
    expect(settled).toBe(false);
    t.exitWith(0);
    const r = await time.driveUntilSettled(removal, STEP_MS);
    expect(r.ok).toBe(true);
    expect(existsSync(dir)).toBe(false);
    expect(s.list()).toEqual([]);
  });

  it('removes nothing when the agent has not exited when the wait is over, and says so', async () => {
    const { s, dir } = await running('stuck');
    const started = time.monoMs();
    const realStart = performance.now();
    const r = await time.driveUntilSettled(s.admin.remove('stuck', true), STEP_MS);
    // The wait was on the supervisor's clock: its 15 s cost no real time to speak of.
    expect(performance.now() - realStart).toBeLessThan(STOP_WAIT_MS / 3);
    expect(r).toMatchObject({ ok: false, code: 'failed', message: 'session "stuck": its agent did not exit within 15 s of being stopped; nothing was removed' });
    expect(time.monoMs() - started).toBeGreaterThanOrEqual(STOP_WAIT_MS);
    expect(existsSync(dir)).toBe(true);
    expect(s.list().map((x) => x.name)).toEqual(['stuck']);
  });
});
