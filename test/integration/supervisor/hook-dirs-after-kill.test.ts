// A killed daemon cannot remove its launches' hook files (the spool dir and settings layer named by
// each launch's nonce in Mori's home): the next launch of the same session removes its last run's, so
// a night of kills leaves one set per session, not one per relaunch. A real `mori up` with a direct
// fake agent is SIGKILLed three times; each next daemon relaunches the agent with a new nonce.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../testkit/until.js';
import { DEADLINE_MS, hasEvent, UpHarness } from '../../support/mori-up.js';

const KILLS = 3;

let h: UpHarness;
beforeEach(() => {
  h = new UpHarness('hook-dirs');
});
afterEach(() => h.cleanup());

/** The launches' nonces with files in Mori's hooks dir (`<nonce>/`, `<nonce>.json`, …). */
function nonces(): string[] {
  return [...new Set(readdirSync(path.join(h.home, 'hooks')).flatMap((n) => /^([0-9a-f]{32})(\.|$)/.exec(n)?.[1] ?? []))].sort();
}

describe("a killed daemon's hook files", () => {
  it("are removed at the session's next launch", async () => {
    h.init('hooked', 'direct');
    const id = (JSON.parse(readFileSync(path.join(h.stateDir('hooked'), 'session.json'), 'utf8')) as { id: string }).id;
    const current = (): string => readFileSync(path.join(h.home, 'hooks', 'runs', id), 'utf8').trim();
    const seen: string[] = [];
    for (let run = 0; run <= KILLS; run++) {
      const up = h.up();
      await until(`launch ${run + 1}`, () => h.starts().length === run + 1 && hasEvent(up, 'session.activity', { to: 'waiting' }), () => up.stderr(), DEADLINE_MS);
      seen.push(current());
      // Only the running launch's files are there: the ones of every killed daemon's launch are gone.
      expect(nonces()).toEqual([current()]);
      up.child.kill('SIGKILL');
      await up.exited;
    }
    expect(new Set(seen).size).toBe(KILLS + 1);
  });
});
