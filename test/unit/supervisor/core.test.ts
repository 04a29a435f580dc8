// The Supervisor's exit handling end to end, with no agent process and no real waiting: agents run in
// the in-memory backend (test/support/fakes/fake-backend.ts), time is the manual clock
// (test/support/fakes/manual-time.ts), state files are real files in a temporary home. Covers a crash
// relaunched only once the restart policy's delay is over, five crashes within ten awake minutes
// ending in attention(crash-loop), exit 0 ending as finished, and a stop that nothing resumes. Every
// "nothing happened" is asserted after moving the manual clock past when it would have happened.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../common/events.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { backoffDelay, DEFAULT_RESTART_POLICY } from '../../../main/supervisor/session/restart-policy.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { FakeBackend } from '../../support/fakes/fake-backend.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';

/** The jitter's midpoint: delays are exactly base × 2^attempt. */
const NO_JITTER = 0.5;
/** Longer than any restart delay the policy gives (its 60 s ceiling) and than its crash-loop window. */
const LONG_AFTER_MS = DEFAULT_RESTART_POLICY.crashLoopWindowMs + DEFAULT_RESTART_POLICY.maxDelayMs;
/** Checkpoints (git) every day only: the clock moves minutes here, and checkpoints are not the subject. */
const NO_PERIODIC_CHECKPOINT_MS = 24 * 60 * 60_000;

let h: SupervisorHarness;
let time: ManualTime;
let backend: FakeBackend;
let made: Supervisor[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-core');
  time = new ManualTime();
  backend = new FakeBackend();
  made = [];
});
afterEach(async () => {
  // An exit's checkpoint reads git in the background: let it land before the files go.
  for (const s of made) await s.checkpointsSettled();
  await h.cleanup();
});

function supervisor(): Supervisor {
  const s = h.supervisor({
    env: h.env(),
    direct: backend,
    clock: time,
    scheduler: time,
    random: () => NO_JITTER,
    verify: false,
    checkpointIntervalMs: NO_PERIODIC_CHECKPOINT_MS,
  });
  made.push(s);
  return s;
}

/** Resolves with the first event from now on that `match` accepts (subscribe before acting). */
function nextEvent(s: Supervisor, match: (e: SupervisorEvent) => boolean): Promise<SupervisorEvent> {
  return new Promise((resolve) => {
    const off = s.on((e) => {
      if (!match(e)) return;
      off();
      resolve(e);
    });
  });
}

const started = (s: Supervisor): Promise<SupervisorEvent> => nextEvent(s, (e) => e.type === 'session.started');

/** A supervisor with one session, its agent launched once. */
async function running(name: string): Promise<{ s: Supervisor; dir: string }> {
  const dir = await h.session(name);
  const s = supervisor();
  const first = started(s);
  const report = await s.start();
  expect(report.ok).toBe(true);
  await first;
  expect(backend.launches).toHaveLength(1);
  return { s, dir };
}

const stateOf = (s: Supervisor, name: string): string | undefined => s.list().find((x) => x.name === name)?.state;

describe('Supervisor with an in-memory backend and a manual clock', () => {
  it('relaunches a crashed agent only once the restart delay is over', async () => {
    const { s } = await running('crashy');
    const delay = backoffDelay(0, NO_JITTER);
    const interrupted = nextEvent(s, (e) => e.type === 'session.interrupted');
    backend.last.exitWith(1);
    expect(await interrupted).toMatchObject({ reason: 'crash', retryInMs: delay });
    expect(stateOf(s, 'crashy')).toBe('backoff');

    // A millisecond short of the delay: still waiting, the retry still ahead, nothing launched.
    time.advance(delay - 1);
    expect(stateOf(s, 'crashy')).toBe('backoff');
    expect(s.list()[0]?.nextAttemptAt).not.toBeNull();
    expect(backend.launches).toHaveLength(1);

    const relaunched = started(s);
    time.advance(1);
    await relaunched;
    expect(backend.launches).toHaveLength(2);
    expect(stateOf(s, 'crashy')).toBe('running');
  });

  it('gives up after five crashes within ten awake minutes with attention(crash-loop), and launches no sixth', async () => {
    const { s, dir } = await running('loop');
    const { crashLoopCount } = DEFAULT_RESTART_POLICY;
    const delays: number[] = [];
    for (let attempt = 0; attempt < crashLoopCount - 1; attempt++) {
      const interrupted = nextEvent(s, (e) => e.type === 'session.interrupted');
      backend.last.exitWith(1);
      const e = await interrupted;
      delays.push(e.type === 'session.interrupted' ? (e.retryInMs ?? -1) : -1);
      const relaunched = started(s);
      time.advance(backoffDelay(attempt, NO_JITTER));
      await relaunched;
    }
    // The delays grow as the policy says: 1 s, 2 s, 4 s, 8 s — all well within ten minutes.
    expect(delays).toEqual([0, 1, 2, 3].map((a) => backoffDelay(a, NO_JITTER)));
    expect(time.monoMs()).toBeLessThan(DEFAULT_RESTART_POLICY.crashLoopWindowMs);
    expect(backend.launches).toHaveLength(crashLoopCount);

    const attention = nextEvent(s, (e) => e.type === 'session.attention');
    backend.last.exitWith(1);
    expect(await attention).toMatchObject({ reason: 'crash-loop' });

    time.advance(LONG_AFTER_MS);
    expect(backend.launches).toHaveLength(crashLoopCount);
    expect(stateOf(s, 'loop')).toBe('attention');
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'attention', reason: 'crash-loop' });
  });

  it('counts crashes spread wider than ten awake minutes as no crash loop', async () => {
    const { s } = await running('slow');
    const { crashLoopCount, crashLoopWindowMs } = DEFAULT_RESTART_POLICY;
    for (let attempt = 0; attempt < crashLoopCount; attempt++) {
      // Each agent runs a quarter of the window (uptime under the policy's reset): five crashes span more than ten minutes.
      time.advance(crashLoopWindowMs / 4);
      const relaunched = started(s);
      backend.last.exitWith(1);
      time.advance(DEFAULT_RESTART_POLICY.maxDelayMs);
      await relaunched;
    }
    expect(backend.launches).toHaveLength(crashLoopCount + 1);
    expect(stateOf(s, 'slow')).toBe('running');
  });

  it('ends an agent that exited 0 as finished and never relaunches it', async () => {
    const { s, dir } = await running('done');
    const exited = nextEvent(s, (e) => e.type === 'session.exited');
    backend.last.exitWith(0);
    expect(await exited).toMatchObject({ outcome: 'finished', code: 0 });
    expect(stateOf(s, 'done')).toBe('finished');

    time.advance(LONG_AFTER_MS);
    expect(backend.launches).toHaveLength(1);
    expect(stateOf(s, 'done')).toBe('finished');
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent.kind).toBe('finished');
  });

  it('never resumes a session the person stopped: not after time passes, not on a wake', async () => {
    const { s, dir } = await running('stopme');
    const stopped = await s.stopSession('stopme');
    expect(stopped.ok && stopped.value.state).toBe('stopped');
    expect(backend.launches[0]?.exit).toEqual({ code: null, signal: 'SIGHUP' });

    time.advance(LONG_AFTER_MS);
    await s.resumeSession('stopme', 'sleep');
    expect(backend.launches).toHaveLength(1);
    expect(stateOf(s, 'stopme')).toBe('stopped');
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'user-stopped' });
  });

  it('cancels the pending restart of a crashed agent the person stops during its backoff', async () => {
    const { s } = await running('halt');
    const interrupted = nextEvent(s, (e) => e.type === 'session.interrupted');
    backend.last.exitWith(1);
    await interrupted;
    const stopped = await s.stopSession('halt');
    expect(stopped.ok && stopped.value.state).toBe('stopped');

    time.advance(LONG_AFTER_MS);
    expect(backend.launches).toHaveLength(1);
    expect(stateOf(s, 'halt')).toBe('stopped');
  });
});
