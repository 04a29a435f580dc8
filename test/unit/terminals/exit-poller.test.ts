// The tmux exit poller on a scheduler that records each wait and fires at once: how often it looks,
// nudges and waits while a pane is reaped, still runs, or cannot be read.
import { describe, expect, it } from 'vitest';
import type { Scheduler } from '../../../main/power/clock.js';
import { EXIT_STATUS_POLL_MS, EXIT_STATUS_POLLS, pollPaneExit, RUNNING_POLL_MS } from '../../../main/terminals/tmux/exit-poller.js';
import type { PaneFate } from '../../../main/terminals/tmux/pane-format.js';

function recorder(): Scheduler & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    after(ms, fn) {
      waits.push(ms);
      queueMicrotask(fn);
      return () => undefined;
    },
  };
}

/** Reads the fates in order, the last one for ever after. */
function fates(...list: (PaneFate | null)[]): { read: () => Promise<PaneFate | null>; reads: () => number } {
  let n = 0;
  return { read: async () => list[Math.min(n++, list.length - 1)] ?? null, reads: () => n };
}

const exiting: PaneFate = { state: 'exiting' };
const running: PaneFate = { state: 'running' };
const dead: PaneFate = { state: 'dead', exit: { code: 3, signal: null } };

describe('pollPaneExit', () => {
  it('nudges a reaped pane at once, then waits between looks, until the status is known', async () => {
    const scheduler = recorder();
    let nudges = 0;
    const f = fates(exiting, exiting, exiting, dead);
    const fate = await pollPaneExit({ readFate: f.read, nudge: async () => nudges++, scheduler, runningPolls: 0 });
    expect(fate).toEqual(dead);
    expect(nudges).toBe(3);
    expect(scheduler.waits).toEqual([EXIT_STATUS_POLL_MS, EXIT_STATUS_POLL_MS]);
  });

  it('gives up on a status tmux never learns after its budget', async () => {
    const scheduler = recorder();
    let nudges = 0;
    const fate = await pollPaneExit({ readFate: fates(exiting).read, nudge: async () => nudges++, scheduler, runningPolls: 0 });
    expect(fate).toEqual(exiting);
    expect(nudges).toBe(EXIT_STATUS_POLLS);
  });

  it('answers a running pane at once, or watches it for the running budget', async () => {
    const once = recorder();
    expect(await pollPaneExit({ readFate: fates(running).read, nudge: async () => 0, scheduler: once, runningPolls: 0 })).toEqual(running);
    expect(once.waits).toEqual([]);
    const watch = recorder();
    const f = fates(running, running, exiting, dead);
    expect(await pollPaneExit({ readFate: f.read, nudge: async () => 0, scheduler: watch, runningPolls: 5 })).toEqual(dead);
    expect(watch.waits).toEqual([RUNNING_POLL_MS, RUNNING_POLL_MS]);
    const budget = recorder();
    expect(await pollPaneExit({ readFate: fates(running).read, nudge: async () => 0, scheduler: budget, runningPolls: 3 })).toEqual(running);
    expect(budget.waits).toEqual([RUNNING_POLL_MS, RUNNING_POLL_MS, RUNNING_POLL_MS]);
  });

  it('stops when the pane cannot be read, or the exit was learnt elsewhere', async () => {
    const scheduler = recorder();
    expect(await pollPaneExit({ readFate: fates(null).read, nudge: async () => 0, scheduler, runningPolls: 3 })).toBeNull();
    let settled = false;
    const f = fates(running);
    const fate = await pollPaneExit({
      readFate: async () => {
        settled = true;
        return f.read();
      },
      nudge: async () => 0,
      scheduler,
      runningPolls: 3,
      settled: () => settled,
    });
    expect(fate).toBeNull();
    expect(f.reads()).toBe(1);
  });
});
