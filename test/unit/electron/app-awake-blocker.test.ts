// The app's own sleep hold (main/electron/app-awake-blocker.ts): Electron's powerSaveBlocker started
// once (prevent-app-suspension) while the daemon says it keeps the machine awake, stopped when it
// says it no longer does, when nothing is known, and at quit; a recording fake of the blocker.
import { describe, expect, it } from 'vitest';
import { AppAwakeBlocker, type PowerSaveBlockerPort } from '../../../main/electron/app-awake-blocker.js';

function recording(): PowerSaveBlockerPort & { calls: string[]; live: Set<number> } {
  let next = 1;
  const calls: string[] = [];
  const live = new Set<number>();
  return {
    calls,
    live,
    start(type) {
      const id = next++;
      live.add(id);
      calls.push(`start ${type} ${id}`);
      return id;
    },
    stop(id) {
      live.delete(id);
      calls.push(`stop ${id}`);
    },
  };
}

describe("the app's sleep hold follows the daemon's", () => {
  it('starts once while the daemon holds and stops when it lets go', () => {
    const fake = recording();
    const blocker = new AppAwakeBlocker(fake);
    blocker.follow({ holding: true, working: 1 });
    blocker.follow({ holding: true, working: 3 });
    expect(fake.calls).toEqual(['start prevent-app-suspension 1']);
    expect(blocker.holding).toBe(true);
    blocker.follow({ holding: false, working: 0 });
    expect(fake.calls).toEqual(['start prevent-app-suspension 1', 'stop 1']);
    expect(fake.live.size).toBe(0);
    blocker.follow({ holding: false, working: 0 });
    expect(fake.calls).toHaveLength(2);
  });

  it('holds nothing while nothing is known, and lets go at quit', () => {
    const fake = recording();
    const blocker = new AppAwakeBlocker(fake);
    blocker.follow(null);
    expect(fake.calls).toEqual([]);
    blocker.follow({ holding: true, working: 2 });
    blocker.follow(null);
    expect(fake.live.size).toBe(0);
    blocker.follow({ holding: true, working: 2 });
    blocker.stop();
    blocker.stop();
    expect(fake.live.size).toBe(0);
    expect(fake.calls).toEqual(['start prevent-app-suspension 1', 'stop 1', 'start prevent-app-suspension 2', 'stop 2']);
  });
});
