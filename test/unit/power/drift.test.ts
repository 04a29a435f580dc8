// The drift detector: its pure verdict over clock pairs, and its timer shell on hand-driven time.
import { describe, expect, it } from 'vitest';
import { DriftDetector, judgeTick, type DriftVerdict, type TickSample } from '../../../main/power/drift-detector.js';
import { ManualTime } from '../../support/fakes/manual-time.js';

const T0: TickSample = { wallMs: 1_000_000, monoMs: 50_000 };
const later = (wall: number, mono: number): TickSample => ({ wallMs: T0.wallMs + wall, monoMs: T0.monoMs + mono });

describe('judgeTick', () => {
  it('calls a tick on time, or late by up to the threshold, on time', () => {
    expect(judgeTick(T0, later(1_000, 1_000))).toEqual({ kind: 'on-time' });
    expect(judgeTick(T0, later(6_000, 6_000))).toEqual({ kind: 'on-time' }); // exactly 5 s late
    expect(judgeTick(T0, later(1_000, 1_000), { intervalMs: 1_000, thresholdMs: 5_000 })).toEqual({ kind: 'on-time' });
  });

  it('sees a sleep on the wall clock alone (the monotonic clock stops during sleep)', () => {
    const v = judgeTick(T0, later(3_600_000, 1_000));
    expect(v).toEqual({ kind: 'gap', suspendAt: T0.wallMs, resumeAt: T0.wallMs + 3_600_000, sleptMs: 3_600_000, clock: 'wall' });
  });

  it('sees a frozen process on both clocks, backdated to the last good tick', () => {
    const v = judgeTick(T0, later(7_400, 7_400));
    expect(v).toMatchObject({ kind: 'gap', suspendAt: T0.wallMs, sleptMs: 7_400 });
  });

  it('sees a freeze on the monotonic clock when the wall clock was set back meanwhile', () => {
    const v = judgeTick(T0, later(-50_000, 20_000)) as Extract<DriftVerdict, { kind: 'gap' }>;
    expect(v.kind).toBe('gap');
    expect(v.clock).toBe('monotonic');
    expect(v.sleptMs).toBe(20_000);
    expect(v.resumeAt - v.suspendAt).toBe(v.sleptMs);
  });

  it('does not take a wall clock set back, with on-time ticks, for a sleep', () => {
    expect(judgeTick(T0, later(-3_600_000, 1_000))).toEqual({ kind: 'on-time' });
  });

  it('respects its configuration', () => {
    expect(judgeTick(T0, later(2_500, 2_500), { intervalMs: 500, thresholdMs: 1_000 }).kind).toBe('gap');
    expect(judgeTick(T0, later(1_400, 1_400), { intervalMs: 500, thresholdMs: 1_000 }).kind).toBe('on-time');
  });
});

function detector(time: ManualTime) {
  const gaps: Extract<DriftVerdict, { kind: 'gap' }>[] = [];
  const ticks: TickSample[] = [];
  const d = new DriftDetector({ clock: time, scheduler: time, onGap: (g) => gaps.push(g), onTick: (s) => ticks.push(s) });
  return { d, gaps, ticks };
}

describe('DriftDetector', () => {
  it('ticks every second and reports nothing while awake', () => {
    const time = new ManualTime();
    const { d, gaps, ticks } = detector(time);
    d.start();
    time.advance(10_000);
    expect(ticks).toHaveLength(10);
    expect(gaps).toEqual([]);
  });

  it('reports a machine sleep on the first tick after wake', () => {
    const time = new ManualTime();
    const { d, gaps } = detector(time);
    d.start();
    time.advance(3_000);
    const lastGood = time.wallMs();
    time.advance(400);
    time.sleep(2 * 3_600_000);
    time.advance(599); // not yet due
    expect(gaps).toEqual([]);
    time.advance(1);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ suspendAt: lastGood, resumeAt: time.wallMs(), clock: 'wall' });
    expect(gaps[0]!.sleptMs).toBe(2 * 3_600_000 + 1_000);
    time.advance(5_000);
    expect(gaps).toHaveLength(1);
  });

  it('reports a frozen process as soon as it runs again', () => {
    const time = new ManualTime();
    const { d, gaps } = detector(time);
    d.start();
    time.advance(2_300);
    time.freeze(7_000);
    time.advance(0);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]!.sleptMs).toBe(7_300); // from the last good tick (at 2 s) to now (9.3 s)
  });

  it('ignores a short stall', () => {
    const time = new ManualTime();
    const { d, gaps } = detector(time);
    d.start();
    time.advance(1_500);
    time.freeze(4_000);
    time.advance(3_000);
    expect(gaps).toEqual([]);
  });

  it('keeps ticking when a callback throws', () => {
    const time = new ManualTime();
    let calls = 0;
    const d = new DriftDetector({
      clock: time,
      scheduler: time,
      onGap: () => undefined,
      onTick: () => {
        calls++;
        throw new Error('listener bug');
      },
    });
    d.start();
    for (let i = 0; i < 3; i++) expect(() => time.advance(1_000)).toThrow('listener bug');
    expect(calls).toBe(3);
  });

  it('stops cleanly: no timer left behind, start again is fresh', () => {
    const time = new ManualTime();
    const { d, gaps, ticks } = detector(time);
    d.start();
    d.start(); // idempotent
    expect(time.pendingCount).toBe(1);
    time.advance(2_000);
    d.stop();
    expect(d.running).toBe(false);
    expect(time.pendingCount).toBe(0);
    time.advance(60_000);
    expect(ticks).toHaveLength(2);
    d.start();
    time.advance(1_000);
    expect(gaps).toEqual([]); // the stopped minute is not a sleep
  });
});
