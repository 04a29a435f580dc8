// PowerEvents deduplication: doubled, late and one-sided reports collapse to one pair per sleep.
import { describe, expect, it } from 'vitest';
import type { ResumeEvent, SuspendEvent } from '../../../common/power.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { initialPowerState, PowerEvents, reducePower, type PowerInput } from '../../../main/power/power-events.js';

const H = 3_600_000;
const T = Date.UTC(2026, 10, 30, 15, 0, 0);

type Seen = { type: 'suspend'; e: SuspendEvent } | { type: 'resume'; e: ResumeEvent };

function harness() {
  const time = new ManualTime(T);
  const power = new PowerEvents({ clock: time });
  const seen: Seen[] = [];
  power.on('suspend', (e) => seen.push({ type: 'suspend', e }));
  power.on('resume', (e) => seen.push({ type: 'resume', e }));
  return { power, seen, time };
}

/** Every emitted sequence alternates suspend, resume, ... and each resume's sleptMs spans its pair. */
function expectConsistent(seen: Seen[]): void {
  seen.forEach((s, i) => {
    expect(s.type).toBe(i % 2 === 0 ? 'suspend' : 'resume');
    if (s.type === 'resume') {
      const before = seen[i - 1]!;
      expect(s.e.sleptMs).toBe(s.e.at - before.e.at);
      expect(s.e.sleptMs).toBeGreaterThanOrEqual(0);
    }
  });
}

describe('PowerEvents', () => {
  it('passes a clean pair through, with sleptMs from the suspend', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    expect(power.asleep).toBe(true);
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H });
    expect(power.asleep).toBe(false);
    expect(seen).toEqual([
      { type: 'suspend', e: { at: T, source: 'powerMonitor' } },
      { type: 'resume', e: { at: T + H, sleptMs: H, source: 'powerMonitor' } },
    ]);
  });

  it('stamps reports without a time with the clock', () => {
    const { power, seen, time } = harness();
    power.feed({ type: 'suspend', source: 'test' });
    time.sleep(5 * 60_000);
    power.feed({ type: 'resume', source: 'test' });
    expect(seen[1]).toEqual({ type: 'resume', e: { at: T + 5 * 60_000, sleptMs: 5 * 60_000, source: 'test' } });
  });

  it('collapses doubled suspends and doubled resumes', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T + 10 });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H + 20 });
    expect(seen.map((s) => s.type)).toEqual(['suspend', 'resume']);
    expect(seen[0]!.e.at).toBe(T);
    expectConsistent(seen);
  });

  it('synthesizes the suspend of a resume without one, from its sleptMs', () => {
    const { power, seen } = harness();
    power.feed({ type: 'resume', source: 'test', at: T + H, sleptMs: H });
    expect(seen).toEqual([
      { type: 'suspend', e: { at: T, source: 'test' } },
      { type: 'resume', e: { at: T + H, sleptMs: H, source: 'test' } },
    ]);
  });

  it('dates a synthesized suspend of unknown length at the last heartbeat', () => {
    const { power, seen } = harness();
    power.alive(T);
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + 2 * H });
    expect(seen).toEqual([
      { type: 'suspend', e: { at: T, source: 'powerMonitor' } },
      { type: 'resume', e: { at: T + 2 * H, sleptMs: 2 * H, source: 'powerMonitor' } },
    ]);
  });

  it('without any heartbeat, a resume of unknown length becomes a zero-length pair', () => {
    const { power, seen } = harness();
    power.feed({ type: 'resume', source: 'powerMonitor', at: T });
    expect(seen).toEqual([
      { type: 'suspend', e: { at: T, source: 'powerMonitor' } },
      { type: 'resume', e: { at: T, sleptMs: 0, source: 'powerMonitor' } },
    ]);
  });

  it('drops the drift detector reporting a sleep powerMonitor already reported', () => {
    const { power, seen } = harness();
    power.alive(T - 400);
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H });
    // The drift detector's first tick after wake: its suspend is backdated to its last good tick.
    power.feed({ type: 'suspend', source: 'drift', at: T + 600 });
    power.feed({ type: 'resume', source: 'drift', at: T + H + 700, sleptMs: H + 100 });
    power.alive(T + H + 700);
    expect(seen.map((s) => `${s.type}:${s.e.source}`)).toEqual(['suspend:powerMonitor', 'resume:powerMonitor']);
    expectConsistent(seen);
  });

  it('drops powerMonitor reporting a wake the drift detector already reported', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'drift', at: T });
    power.feed({ type: 'resume', source: 'drift', at: T + H, sleptMs: H });
    power.alive(T + H);
    power.alive(T + H + 1_000);
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H + 4_000 });
    expect(seen.map((s) => `${s.type}:${s.e.source}`)).toEqual(['suspend:drift', 'resume:drift']);
  });

  it('completes powerMonitor\'s suspend with the drift detector\'s resume when that comes first', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    power.feed({ type: 'suspend', source: 'drift', at: T + 300 });
    power.feed({ type: 'resume', source: 'drift', at: T + H, sleptMs: H - 300 });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H + 2_000 });
    expect(seen).toEqual([
      { type: 'suspend', e: { at: T, source: 'powerMonitor' } },
      { type: 'resume', e: { at: T + H, sleptMs: H, source: 'drift' } },
    ]);
  });

  it('keeps two real sleeps apart, even close together', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + H });
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T + H + 10_000 });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + 2 * H });
    // ...and a drift-only sleep shortly after (a resume whose sleep began after the last wake).
    power.feed({ type: 'suspend', source: 'drift', at: T + 2 * H + 5_000 });
    power.feed({ type: 'resume', source: 'drift', at: T + 2 * H + 20_000, sleptMs: 15_000 });
    expect(seen.map((s) => s.type)).toEqual(['suspend', 'resume', 'suspend', 'resume', 'suspend', 'resume']);
    expectConsistent(seen);
  });

  it('synthesizes a pair for a resume without suspend long after the last wake', () => {
    const { power, seen } = harness();
    power.feed({ type: 'resume', source: 'drift', at: T, sleptMs: 10_000 });
    power.alive(T + 10 * 60_000);
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + 10 * 60_000 + 500 });
    expect(seen.map((s) => s.type)).toEqual(['suspend', 'resume', 'suspend', 'resume']);
    expect(seen[2]!.e.at).toBe(T + 10 * 60_000);
    expectConsistent(seen);
  });

  it('never reports negative sleep when the clock was set back between suspend and resume', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    power.feed({ type: 'resume', source: 'powerMonitor', at: T - 60_000 });
    expect(seen[1]!.e).toEqual({ at: T, sleptMs: 0, source: 'powerMonitor' });
    expectConsistent(seen);
  });

  it('ends a suspend that never became a sleep after a minute of heartbeats', () => {
    const { power, seen } = harness();
    power.feed({ type: 'suspend', source: 'powerMonitor', at: T });
    for (let s = 1; s <= 60; s++) power.alive(T + s * 1_000);
    expect(power.asleep).toBe(true);
    power.alive(T + 61_000);
    expect(power.asleep).toBe(false);
    expect(seen[1]).toEqual({ type: 'resume', e: { at: T + 61_000, sleptMs: 61_000, source: 'drift' } });
    // The late powerMonitor resume, if it ever comes, is an echo.
    power.feed({ type: 'resume', source: 'powerMonitor', at: T + 65_000 });
    expect(seen).toHaveLength(2);
  });

  it('isolates a throwing listener', () => {
    const errors: unknown[] = [];
    const power = new PowerEvents({ onListenerError: (e) => errors.push(e) });
    const got: string[] = [];
    power.on('suspend', () => {
      throw new Error('bug');
    });
    power.on('suspend', () => got.push('second'));
    power.feed({ type: 'suspend', source: 'test', at: T });
    expect(got).toEqual(['second']);
    expect(errors).toHaveLength(1);
  });

  it('unsubscribes', () => {
    const power = new PowerEvents();
    const got: unknown[] = [];
    const off = power.on('resume', (e) => got.push(e));
    off();
    power.feed({ type: 'resume', source: 'test', at: T, sleptMs: 1 });
    expect(got).toEqual([]);
  });
});

describe('reducePower', () => {
  it('is pure: the same state and input give the same answer and the state is not mutated', () => {
    const s0 = initialPowerState();
    const input: PowerInput = { type: 'suspend', at: T, source: 'test' };
    const a = reducePower(s0, input);
    const b = reducePower(s0, input);
    expect(a).toEqual(b);
    expect(s0).toEqual(initialPowerState());
  });

  it('yields one pair per sleep over any interleaving of two sources reporting the same sleep', () => {
    // powerMonitor: suspend at T, resume at wake + pmLag; drift: backdated suspend + resume at wake + driftLag.
    const wake = T + H;
    const pm: PowerInput[] = [
      { type: 'suspend', at: T, source: 'powerMonitor' },
      { type: 'resume', at: wake + 1_500, source: 'powerMonitor' },
    ];
    const drift: PowerInput[] = [
      { type: 'suspend', at: T - 700, source: 'drift' },
      { type: 'resume', at: wake + 300, sleptMs: H + 1_000, source: 'drift' },
    ];
    // All merges of the two sequences that keep each source's own order.
    const merges = (a: PowerInput[], b: PowerInput[]): PowerInput[][] =>
      a.length === 0 ? [b] : b.length === 0 ? [a] : [...merges(a.slice(1), b).map((m) => [a[0]!, ...m]), ...merges(a, b.slice(1)).map((m) => [b[0]!, ...m])];
    for (const order of merges(pm, drift)) {
      let state = initialPowerState();
      const out: string[] = [];
      for (const input of order) {
        const r = reducePower(state, input);
        state = r.state;
        out.push(...r.emit.map((e) => e.type));
      }
      expect(out, JSON.stringify(order)).toEqual(['suspend', 'resume']);
      expect(state.asleep).toBeNull();
    }
  });
});
