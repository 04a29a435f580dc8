// Network reachability: the pure debounce decision, the probe schedule, and the monitor shell
// driven by a scripted probe on hand-driven time. Real sockets are in test/integration/power-network.
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { NetworkOfflineEvent, NetworkOnlineEvent, ProbeTarget } from '../../../common/power.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import {
  afterWake,
  CONFIRM_PROBE_INTERVAL_MS,
  decideProbe,
  initialNetworkState,
  nextProbeDelayMs,
  OFFLINE_PROBE_INTERVAL_MS,
  ONLINE_PROBE_INTERVAL_MS,
  type NetworkState,
} from '../../../main/power/network-state.js';
import { Reachability } from '../../../main/power/reachability.js';
import type { Probe, ProbeOutcome } from '../../../main/power/tcp-probe.js';

const T = Date.UTC(2026, 10, 30, 15, 0, 0);

function run(results: boolean[], start: NetworkState = initialNetworkState()) {
  let state = start;
  const events: string[] = [];
  results.forEach((ok, i) => {
    const r = decideProbe(state, { ok, at: T + i * 1_000, detail: ok ? '' : 'x:1 tcp ECONNREFUSED' });
    state = r.state;
    if (r.event) events.push(r.event.type);
  });
  return { state, events };
}

describe('decideProbe', () => {
  it('goes online silently at start, offline only after three failures in a row', () => {
    expect(run([true])).toMatchObject({ state: { status: 'online' }, events: [] });
    expect(run([true, false, false])).toMatchObject({ state: { status: 'online' }, events: [] });
    expect(run([true, false, false, true, false, false])).toMatchObject({ state: { status: 'online' }, events: [] });
    expect(run([true, false, false, false])).toMatchObject({ state: { status: 'offline' }, events: ['offline'] });
  });

  it('announces an offline at start (there is something to act on)', () => {
    expect(run([false, false, false])).toMatchObject({ state: { status: 'offline' }, events: ['offline'] });
  });

  it('needs two successes in a row to come back, and reports how long it was away', () => {
    const down = run([true, false, false, false]).state;
    expect(down.offlineSince).toBe(T + 1_000);
    expect(run([true, false, true, false], down)).toMatchObject({ state: { status: 'offline' }, events: [] });
    const r = decideProbe(decideProbe(down, { ok: true, at: T + 60_000, detail: '' }).state, { ok: true, at: T + 62_000, detail: '' });
    expect(r.event).toEqual({ type: 'online', event: { at: T + 62_000, offlineMs: 61_000 } });
    expect(r.state).toMatchObject({ status: 'online', reported: 'online', offlineSince: null });
  });

  it('carries what failed and when the streak began into the offline event', () => {
    let s = initialNetworkState();
    let event: unknown = null;
    for (let i = 0; i < 3; i++) {
      const r = decideProbe(s, { ok: false, at: T + i * 2_000, detail: `round ${i}` });
      s = r.state;
      event = r.event ?? event;
    }
    expect(event).toEqual({ type: 'offline', event: { at: T + 4_000, since: T, detail: 'round 2' } });
  });

  it('flaps never: alternating results after an offline give one offline and no online', () => {
    const { events } = run([true, false, false, false, true, false, true, false, true, false]);
    expect(events).toEqual(['offline']);
  });

  it('after a wake: one success is enough, and an offline from before the sleep is closed by an online', () => {
    const down = run([true, false, false, false]).state;
    const woke = afterWake(down);
    expect(woke).toMatchObject({ status: 'unknown', reported: 'offline', failures: 0, successes: 0 });
    const r = decideProbe(woke, { ok: true, at: T + 3_600_000, detail: '' });
    expect(r.event?.type).toBe('online');
    // ...and one still offline after the wake is not announced twice.
    expect(run([false, false, false], woke).events).toEqual([]);
    expect(run([false, false, false], woke).state.status).toBe('offline');
    // Online before the sleep and online after: nothing to announce.
    expect(run([true], afterWake(run([true]).state)).events).toEqual([]);
  });

  it('schedules: slow while online, fast while confirming, medium while offline', () => {
    expect(nextProbeDelayMs(initialNetworkState())).toBe(CONFIRM_PROBE_INTERVAL_MS);
    expect(nextProbeDelayMs(run([true]).state)).toBe(ONLINE_PROBE_INTERVAL_MS);
    expect(nextProbeDelayMs(run([true, false]).state)).toBe(CONFIRM_PROBE_INTERVAL_MS);
    expect(nextProbeDelayMs(run([false, false, false]).state)).toBe(OFFLINE_PROBE_INTERVAL_MS);
    expect(nextProbeDelayMs(run([false, false, false, true]).state)).toBe(CONFIRM_PROBE_INTERVAL_MS);
    expect(OFFLINE_PROBE_INTERVAL_MS).toBeGreaterThanOrEqual(2_000);
    expect(OFFLINE_PROBE_INTERVAL_MS).toBeLessThanOrEqual(5_000);
  });
});

const TARGET: ProbeTarget = { host: 'api.example.test', port: 443 };

/** A probe whose answer the test sets; it counts rounds and can be held open. */
function scriptedProbe() {
  const s = {
    up: true,
    rounds: 0,
    aborted: 0,
    hold: false,
    release: [] as (() => void)[],
    probe: ((_targets, { signal }) => {
      s.rounds++;
      const answer = (): ProbeOutcome =>
        s.up ? { ok: true, results: [{ target: TARGET, ok: true, ms: 1 }] } : { ok: false, results: [{ target: TARGET, ok: false, stage: 'tcp', code: 'ECONNREFUSED', ms: 1 }] };
      if (!s.hold) return Promise.resolve(answer());
      return new Promise<ProbeOutcome>((resolve) => {
        signal?.addEventListener('abort', () => s.aborted++);
        s.release.push(() => resolve(answer()));
      });
    }) as Probe,
  };
  return s;
}

function monitor() {
  const time = new ManualTime(T);
  const p = scriptedProbe();
  const r = new Reachability({ targets: [TARGET], probe: p.probe, clock: time, scheduler: time });
  const offline: NetworkOfflineEvent[] = [];
  const online: NetworkOnlineEvent[] = [];
  r.on('offline', (e) => offline.push(e));
  r.on('online', (e) => online.push(e));
  /** Moves time in steps, letting probe promises settle between them. */
  const pass = async (ms: number, step = 250): Promise<void> => {
    for (let t = 0; t < ms; t += step) {
      time.advance(Math.min(step, ms - t));
      await tick();
    }
  };
  return { time, p, r, offline, online, pass };
}

describe('Reachability', () => {
  it('probes at start, then every 30 s while online', async () => {
    const { p, r, pass } = monitor();
    r.start();
    await tick();
    expect(r.status).toBe('online');
    expect(p.rounds).toBe(1);
    await pass(ONLINE_PROBE_INTERVAL_MS * 3);
    expect(p.rounds).toBe(4);
    r.stop();
  });

  it('goes offline within seconds of the first failed round, once, then probes every 5 s', async () => {
    const { p, r, pass, offline, online } = monitor();
    r.start();
    await tick();
    p.up = false;
    await pass(ONLINE_PROBE_INTERVAL_MS); // the next scheduled round fails
    expect(r.status).toBe('online');
    await pass(2 * CONFIRM_PROBE_INTERVAL_MS); // two confirming rounds
    expect(r.status).toBe('offline');
    expect(offline).toHaveLength(1);
    const before = p.rounds;
    await pass(10 * OFFLINE_PROBE_INTERVAL_MS);
    expect(p.rounds - before).toBe(10);
    expect(offline).toHaveLength(1);
    expect(online).toHaveLength(0);
    r.stop();
  });

  it('comes back after two successful rounds and says how long it was away', async () => {
    const { p, r, pass, offline, online, time } = monitor();
    p.up = false;
    r.start();
    await pass(2 * CONFIRM_PROBE_INTERVAL_MS + 500);
    expect(offline).toHaveLength(1);
    p.up = true;
    const upAt = time.wallMs();
    await pass(OFFLINE_PROBE_INTERVAL_MS);
    expect(r.status).toBe('offline');
    await pass(CONFIRM_PROBE_INTERVAL_MS);
    expect(r.status).toBe('online');
    expect(online).toHaveLength(1);
    expect(online[0]!.offlineMs).toBeGreaterThanOrEqual(upAt - offline[0]!.since);
    r.stop();
  });

  it('probes at once on a hint, coalescing hints that arrive during a round', async () => {
    const { p, r } = monitor();
    p.hold = true;
    r.start();
    expect(p.rounds).toBe(1);
    r.hint();
    r.hint();
    expect(p.rounds).toBe(1);
    p.release.shift()!();
    await tick();
    expect(p.rounds).toBe(2); // one follow-up round for both hints
    p.release.shift()!();
    await tick();
    expect(p.rounds).toBe(2);
    expect(r.status).toBe('online');
    r.stop();
  });

  it('waitForOnline: at once when online, true when the network returns, false on timeout', async () => {
    const { p, r, pass } = monitor();
    r.start();
    await tick();
    await expect(r.waitForOnline(1_000)).resolves.toBe(true);
    p.up = false;
    r.wake(); // stale after a wake: unknown until probed
    await tick();
    expect(r.status).toBe('unknown');
    const late = r.waitForOnline(3_000);
    await pass(3_000);
    await expect(late).resolves.toBe(false);
    // Still down after the wake: offline now, so the return has to hold for two rounds.
    await pass(2_000);
    expect(r.status).toBe('offline');
    p.up = true;
    const soon = r.waitForOnline(60_000);
    let answered: boolean | null = null;
    soon.then((v) => (answered = v), () => undefined);
    await pass(1_000);
    expect(answered).toBeNull();
    await pass(CONFIRM_PROBE_INTERVAL_MS + 500);
    expect(answered).toBe(true);
    r.stop();
  });

  it('a wake cancels the round in flight and probes afresh; pause stops probing', async () => {
    const { time, p, r, pass } = monitor();
    p.hold = true;
    r.start();
    p.release.shift()!();
    await tick();
    p.up = false;
    await pass(ONLINE_PROBE_INTERVAL_MS);
    expect(p.rounds).toBe(2); // held open
    r.wake();
    expect(p.aborted).toBe(1);
    expect(p.rounds).toBe(3);
    p.release.shift()!(); // the cancelled round's late answer is ignored
    await tick();
    expect(r.status).toBe('unknown');
    r.pause();
    expect(p.aborted).toBe(2);
    expect(time.pendingCount).toBe(0);
    r.hint(); // asleep: hints wait for the wake
    expect(p.rounds).toBe(3);
    r.stop();
  });

  it('with no targets probes nothing and waitForOnline answers at once; setTargets starts probing', async () => {
    const time = new ManualTime(T);
    const p = scriptedProbe();
    const r = new Reachability({ targets: [], probe: p.probe, clock: time, scheduler: time });
    r.start();
    await expect(r.waitForOnline(1_000)).resolves.toBe(true);
    time.advance(ONLINE_PROBE_INTERVAL_MS * 2);
    expect(p.rounds).toBe(0);
    r.setTargets([TARGET]);
    expect(p.rounds).toBe(1);
    r.stop();
  });

  it('stop leaves no timer and answers pending waiters with false', async () => {
    const { time, p, r } = monitor();
    p.up = false;
    r.start();
    await tick();
    const w = r.waitForOnline(60_000);
    r.stop();
    await expect(w).resolves.toBe(false);
    expect(time.pendingCount).toBe(0);
  });

  it('counts a probe that throws as a failed round', async () => {
    const time = new ManualTime(T);
    const r = new Reachability({ targets: [TARGET], probe: () => Promise.reject(new Error('boom')), clock: time, scheduler: time });
    const offline: NetworkOfflineEvent[] = [];
    r.on('offline', (e) => offline.push(e));
    r.start();
    for (let i = 0; i < 3; i++) {
      await tick();
      time.advance(CONFIRM_PROBE_INTERVAL_MS);
    }
    await tick();
    expect(offline).toHaveLength(1);
    expect(offline[0]!.detail).toContain('boom');
    r.stop();
  });
});
