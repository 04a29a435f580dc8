// Polling for an agent's self-chosen session id (main/supervisor/launch/agent-id-learner.ts) on a manual
// scheduler: brisk polls at first then slow ones, one report when found, none after a cancel, and a
// failing look counts as "not yet".
import { describe, expect, it } from 'vitest';
import type { Cancel, Scheduler } from '../../../main/power/clock.js';
import { AGENT_ID_FAST_FOR_MS, AGENT_ID_FAST_POLL_MS, AGENT_ID_SLOW_POLL_MS, watchAgentSessionId } from '../../../main/supervisor/launch/agent-id-learner.js';

/** Timers that run only when the test advances the clock. */
class ManualScheduler implements Scheduler {
  now = 0;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  after(ms: number, fn: () => void): Cancel {
    const t = { at: this.now + ms, fn, live: true };
    this.timers.push(t);
    return () => {
      t.live = false;
    };
  }
  /** Advances to the next live timer and runs it (and the look it starts); false when none is left. */
  async step(): Promise<boolean> {
    const next = this.timers.filter((t) => t.live).sort((a, b) => a.at - b.at)[0];
    if (next === undefined) return false;
    next.live = false;
    this.now = next.at;
    next.fn();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return true;
  }
}

describe('watchAgentSessionId', () => {
  it('polls every second at first, then every 15 s, and reports the id once', async () => {
    const s = new ManualScheduler();
    const looks: number[] = [];
    const found: string[] = [];
    const foundAt = AGENT_ID_FAST_FOR_MS + 3 * AGENT_ID_SLOW_POLL_MS;
    watchAgentSessionId({
      scheduler: s,
      discover: () => {
        looks.push(s.now);
        return Promise.resolve(s.now >= foundAt ? 'the-id' : null);
      },
      onFound: (id) => found.push(id),
    });
    while (await s.step());
    expect(found).toEqual(['the-id']);
    expect(looks[0]).toBe(0);
    expect(looks[1]).toBe(AGENT_ID_FAST_POLL_MS);
    const gaps = looks.slice(1).map((t, i) => t - (looks[i] as number));
    expect(gaps.filter((g) => g === AGENT_ID_FAST_POLL_MS).length).toBe(AGENT_ID_FAST_FOR_MS / AGENT_ID_FAST_POLL_MS);
    expect(gaps.at(-1)).toBe(AGENT_ID_SLOW_POLL_MS);
    expect(looks.at(-1)).toBe(foundAt);
  });

  it('stops on cancel, and a look that throws is "not yet"', async () => {
    const s = new ManualScheduler();
    let looks = 0;
    const found: string[] = [];
    const cancel = watchAgentSessionId({
      scheduler: s,
      discover: () => {
        looks++;
        return looks === 1 ? Promise.reject(new Error('disk gone')) : Promise.resolve(null);
      },
      onFound: (id) => found.push(id),
    });
    await s.step();
    await s.step();
    expect(looks).toBe(2);
    cancel();
    expect(await s.step()).toBe(false);
    expect(looks).toBe(2);
    expect(found).toEqual([]);
  });
});
