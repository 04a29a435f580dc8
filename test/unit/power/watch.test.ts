// PowerWatch wiring and probe target selection: the drift detector and adapters feed one deduped
// pair, the network is re-probed on wake before listeners hear of it, dispose leaves no timer.
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { PowerEventMap, ProbeTarget } from '../../../common/power.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { parseProbeTargets, probeTargetsFor, proxyTarget } from '../../../main/power/probe-targets.js';
import { createPowerWatch } from '../../../main/power/power-watch.js';
import type { Probe } from '../../../main/power/tcp-probe.js';

const T = Date.UTC(2026, 10, 30, 15, 0, 0);
const H = 3_600_000;

describe('probe targets', () => {
  it('parses MORI_PROBE', () => {
    expect(parseProbeTargets('127.0.0.1:8080, localhost:9, [::1]:443')).toEqual({
      ok: true,
      value: [
        { host: '127.0.0.1', port: 8080 },
        { host: 'localhost', port: 9 },
        { host: '::1', port: 443 },
      ],
    });
    for (const bad of ['localhost', 'host:0', 'host:70000', '::1:443', 'a b:1', '', ',']) {
      expect(parseProbeTargets(bad), bad).toMatchObject({ ok: false, code: 'usage' });
    }
  });

  it('probes the API hosts of the active agents, once each', () => {
    expect(probeTargetsFor(['claude', 'aider', 'claude'], {})).toEqual({
      ok: true,
      value: [
        { host: 'api.anthropic.com', port: 443 },
        { host: 'api.openai.com', port: 443 },
      ],
    });
    expect(probeTargetsFor(['shell', 'custom'], {})).toEqual({ ok: true, value: [] });
    expect(probeTargetsFor([], {})).toEqual({ ok: true, value: [] });
  });

  it('MORI_PROBE overrides; an HTTPS proxy replaces the API hosts', () => {
    expect(probeTargetsFor(['claude'], { MORI_PROBE: '127.0.0.1:1234' })).toEqual({ ok: true, value: [{ host: '127.0.0.1', port: 1234 }] });
    expect(probeTargetsFor(['claude'], { HTTPS_PROXY: 'http://proxy.corp:3128' })).toEqual({ ok: true, value: [{ host: 'proxy.corp', port: 3128 }] });
    // No agent needs the network: the proxy is not probed either.
    expect(probeTargetsFor(['shell'], { https_proxy: 'proxy.corp:3128' })).toEqual({ ok: true, value: [] });
    expect(proxyTarget({ https_proxy: 'https://[fd00::1]' })).toEqual({ host: 'fd00::1', port: 443 });
    expect(proxyTarget({ HTTPS_PROXY: '::not a url::' })).toBeNull();
  });
});

function harness(up = true) {
  const time = new ManualTime(T);
  const probe = { up, rounds: 0 };
  const fake: Probe = async (targets: readonly ProbeTarget[]) => {
    probe.rounds++;
    return probe.up
      ? { ok: true, results: [{ target: targets[0]!, ok: true, ms: 1 }] }
      : { ok: false, results: [{ target: targets[0]!, ok: false, stage: 'tcp', code: 'ECONNREFUSED', ms: 1 }] };
  };
  const seen: string[] = [];
  const watch = createPowerWatch({ env: { MORI_PROBE: '127.0.0.1:1' }, clock: time, scheduler: time, probe: fake });
  for (const type of ['power.suspend', 'power.resume', 'network.offline', 'network.online'] as const) {
    watch.on(type, (e: PowerEventMap[typeof type]) => seen.push(`${type}${'sleptMs' in e ? ` ${e.sleptMs}` : ''}`));
  }
  return { time, probe, seen, watch };
}

describe('createPowerWatch', () => {
  it('turns a sleep seen by the drift detector into one suspend/resume pair', async () => {
    const { time, seen, watch } = harness();
    time.advance(5_000);
    time.sleep(H);
    time.advance(1_000);
    expect(seen).toEqual(['power.suspend', `power.resume ${H + 1_000}`]);
    expect(watch.asleep).toBe(false);
    watch.dispose();
  });

  it('collapses powerMonitor and the drift detector reporting the same sleep', () => {
    const { time, seen, watch } = harness();
    time.advance(3_500);
    watch.feed({ type: 'suspend', source: 'powerMonitor' });
    expect(watch.asleep).toBe(true);
    time.sleep(H);
    watch.feed({ type: 'resume', source: 'powerMonitor' });
    time.advance(1_000); // the drift detector's late report
    watch.feed({ type: 'resume', source: 'powerMonitor' }); // and a doubled one
    expect(seen).toEqual(['power.suspend', `power.resume ${H}`]);
    watch.dispose();
  });

  it('re-probes the network on wake before the resume listeners run', async () => {
    const { time, probe, watch } = harness();
    await tick();
    expect(watch.network).toBe('online');
    const roundsBefore = probe.rounds;
    let statusSeenByListener: string | null = null;
    let waited: Promise<boolean> | null = null;
    watch.on('power.resume', () => {
      statusSeenByListener = watch.network;
      waited = watch.waitForOnline(10_000);
    });
    time.sleep(H);
    time.advance(1_000);
    expect(statusSeenByListener).toBe('unknown');
    expect(probe.rounds).toBe(roundsBefore + 1);
    await expect(waited!).resolves.toBe(true);
    watch.dispose();
  });

  it('announces an outage and the return, and waits for the network on wake while it is down', async () => {
    const { time, probe, seen, watch } = harness(false);
    for (let i = 0; i < 20; i++) {
      time.advance(500);
      await tick();
    }
    expect(seen).toEqual(['network.offline']);
    const w = watch.waitForOnline(30_000);
    probe.up = true;
    for (let i = 0; i < 20; i++) {
      time.advance(500);
      await tick();
    }
    await expect(w).resolves.toBe(true);
    expect(seen).toEqual(['network.offline', 'network.online']);
    watch.dispose();
  });

  it('with no agent needing the network, probes nothing; setProfiles starts (MORI_PROBE still wins)', async () => {
    const time = new ManualTime(T);
    let rounds = 0;
    const probe: Probe = async () => {
      rounds++;
      return { ok: true, results: [] };
    };
    const watch = createPowerWatch({ env: {}, clock: time, scheduler: time, probe });
    await expect(watch.waitForOnline(1_000)).resolves.toBe(true);
    expect(rounds).toBe(0);
    watch.setProfiles(['claude']);
    expect(rounds).toBe(1);
    watch.dispose();
    expect(() => createPowerWatch({ env: { MORI_PROBE: 'nonsense' }, clock: time, scheduler: time })).toThrow(/MORI_PROBE/);
  });

  it('dispose stops every timer and ignores later reports', async () => {
    const { time, seen, watch } = harness();
    await tick();
    expect(time.pendingCount).toBeGreaterThan(0);
    watch.dispose();
    expect(time.pendingCount).toBe(0);
    watch.feed({ type: 'resume', source: 'test', sleptMs: 10_000 });
    watch.hint();
    time.sleep(H);
    time.advance(60_000);
    expect(seen).toEqual([]);
  });
});
