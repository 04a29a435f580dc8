// The rule for the soak's end reading of the daemon's CPU (soak/cpu-rest.ts): no younger than the
// warm-up daemon was at its window, and a reading above the bound taken again while it still falls.
// The 1,000-fault run of seed 7 read 42 % of a core from a daemon started 30 s before its last fault
// and read right after the run settled, against 12 % at warm-up.
import { describe, expect, it } from 'vitest';
import { anotherWindow, MAX_END_WINDOWS, waitForAge } from '../../../soak/cpu-rest.js';
import { cpuBound } from '../../../soak/invariants.js';

describe('the end CPU window', () => {
  it('starts once the daemon is as old as the warm-up daemon was at its window', () => {
    expect(waitForAge(50_000, 69_000)).toBe(19_000);
    expect(waitForAge(3_600_000, 69_000)).toBe(0);
    expect(waitForAge(null, 69_000)).toBe(0);
    expect(waitForAge(50_000, null)).toBe(0);
  });

  it('is taken again while a reading above the bound still falls (a daemon settling), not when it stays (one spinning)', () => {
    const bound = cpuBound(0.12); // 27 % of a core
    expect(bound).toBeCloseTo(0.27);
    expect(anotherWindow([], bound)).toBe(true);
    expect(anotherWindow([0.2], bound)).toBe(false);
    // Start-up work fading: looked at again until within the bound.
    expect(anotherWindow([0.42], bound)).toBe(true);
    expect(anotherWindow([0.42, 0.3], bound)).toBe(true);
    expect(anotherWindow([0.42, 0.3, 0.15], bound)).toBe(false);
    // A spin: two readings alike, the second is the verdict.
    expect(anotherWindow([0.42, 0.41], bound)).toBe(false);
    // Bounded, falling or not.
    expect(anotherWindow([0.9, 0.6, 0.45, 0.33].slice(0, MAX_END_WINDOWS), bound)).toBe(false);
  });
});
