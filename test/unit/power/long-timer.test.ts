// Timers at any distance (main/power/long-timer.ts): on the manual clock, which fires a delay past
// setTimeout's int32 limit at once as setTimeout does, a wait of weeks is armed in steps and fires
// at its time, not before; a wall-clock deadline follows the wall clock. The system scheduler, on
// real timers, does not fire such a delay at once.
import { describe, expect, it } from 'vitest';
import { systemScheduler } from '../../../main/power/clock.js';
import { afterAnyDelay, atWallTime, MAX_TIMER_MS } from '../../../main/power/long-timer.js';
import { ManualTime } from '../../support/fakes/manual-time.js';

const DAY_MS = 24 * 60 * 60_000;

describe('a timer past setTimeout\'s limit', () => {
  it('fires at once when armed raw (the overflow this guards against)', () => {
    const time = new ManualTime();
    let fired = 0;
    time.after(MAX_TIMER_MS + 1, () => fired++);
    time.advance(1);
    expect(fired).toBe(1);
  });

  it('fires after its whole delay, not before, when armed in steps', () => {
    const time = new ManualTime();
    let fired = 0;
    afterAnyDelay(time.after.bind(time), 40 * DAY_MS, () => fired++);
    time.advance(40 * DAY_MS - 1);
    expect(fired).toBe(0);
    time.advance(1);
    expect(fired).toBe(1);
    time.advance(100 * DAY_MS);
    expect(fired).toBe(1);
  });

  it('cancelled between steps, never fires', () => {
    const time = new ManualTime();
    let fired = 0;
    const cancel = afterAnyDelay(time.after.bind(time), 40 * DAY_MS, () => fired++);
    time.advance(30 * DAY_MS);
    cancel();
    time.advance(30 * DAY_MS);
    expect(fired).toBe(0);
    expect(time.pendingCount).toBe(0);
  });

  it('at a wall-clock deadline 400 days ahead: fires at it, not before, and follows a wall clock set forward', () => {
    const time = new ManualTime();
    let fired = 0;
    const deadline = time.wallMs() + 400 * DAY_MS;
    atWallTime(time, time, deadline, () => fired++);
    time.advance(399 * DAY_MS);
    expect(fired).toBe(0);
    time.advance(DAY_MS - 1);
    expect(fired).toBe(0);
    time.advance(1);
    expect(fired).toBe(1);
    expect(time.wallMs()).toBe(deadline);

    // The wall clock set 50 days forward: the next step measures again and fires within a day of it.
    const later = time.wallMs() + 60 * DAY_MS;
    atWallTime(time, time, later, () => fired++);
    time.setWallBy(50 * DAY_MS);
    time.advance(DAY_MS);
    expect(fired).toBe(1);
    time.advance(10 * DAY_MS - DAY_MS);
    expect(fired).toBe(2);
  });

  it('a deadline already passed fires on the next turn', () => {
    const time = new ManualTime();
    let fired = 0;
    atWallTime(time, time, time.wallMs() - 5_000, () => fired++);
    expect(fired).toBe(0);
    time.advance(0);
    expect(fired).toBe(1);
  });

  it('on the system scheduler, a delay of 2^31 ms does not fire at once', async () => {
    let fired = 0;
    const cancel = systemScheduler.after(2 ** 31, () => fired++);
    await new Promise((r) => setTimeout(r, 100));
    cancel();
    expect(fired).toBe(0);
  });
});
