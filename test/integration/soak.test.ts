// The seeded soak, short, in every run of the suite: sessions of the soak agent (and the real Claude
// Code when installed) under the real daemon (`mori up --daemon`), faults from the schedule of a
// fixed seed and of a random one (printed, so a failure replays with `npm run soak -- --seed S …`),
// every invariant held. Real processes, tmux, ptys and signals.
import { describe, expect, it } from 'vitest';
import { randomSeed } from '../../soak/prng.js';
import { runSoak } from '../../soak/runner.js';
import { FAULT_KINDS, NETWORK_KINDS, type FaultKind } from '../../soak/schedule.js';

/** Fewer sessions than the night's 20: each is a Node start and a git repository on two cores the rest of the suite shares. */
const SESSIONS = 4;
/** The fixed seed's run and the random one's: 105 faults together. */
const FIXED = { seed: 20261206, faults: 55 };
const RANDOM_FAULTS = 50;
/**
 * Every family but the network's: a network loss or an API outage holds every session for 2–25 s
 * and a usage limit holds the run's end until its reset a minute ahead, which would put this test
 * past minutes of the suite's time; the night's run (`npm run soak`) draws them, and their own
 * tests (test/integration/daemon/offline-resume.test.ts, supervisor/api-error.test.ts,
 * agents/usage-limit.test.ts and the real CLIs' limit tests) run in every suite.
 */
const KINDS: readonly FaultKind[] = FAULT_KINDS.filter((k) => !(NETWORK_KINDS as readonly string[]).includes(k));
/** A run's warm-up, faults (sleeps of 6.5–9 s among them), settling bound and teardown on a loaded machine. */
const RUN_TIMEOUT_MS = 420_000;

/**
 * The daemon's footprint in a run this short: its RSS after a minute or two of faults is V8's heap
 * between collections as much as anything kept (up to 18 % above warm-up seen on a loaded runner), so the 10 % of the
 * night's run (`npm run soak`) would fail on noise here. A leak per fault or per session still shows
 * past half again as much; open fds are counted exactly.
 */
function heldFootprint(r: Record<string, unknown>): void {
  const f = r['figures'] as { rssKiBBefore: number; rssKiBAfter: number; fdsBefore: number; fdsAfter: number };
  expect(f.rssKiBAfter).toBeLessThan(f.rssKiBBefore * 1.5);
  expect(f.fdsAfter).toBeLessThanOrEqual(Math.ceil(f.fdsBefore * 1.1));
}

/** Every invariant's count but the footprint's (checked by heldFootprint) is 0. */
function held(r: Record<string, unknown>): void {
  const v = { ...(r['violations'] as Record<string, number>) };
  delete v['footprint'];
  expect(v).toEqual(Object.fromEntries(Object.keys(v).map((k) => [k, 0])));
  heldFootprint(r);
}

async function soak(seed: number, faults: number): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const result = await runSoak({ seed, faults, sessions: SESSIONS, kinds: KINDS, log: (l) => lines.push(l) });
  // A failing run prints its log and JSON: the seed and the faults replay it.
  if (result['pass'] !== true) process.stderr.write(`${lines.join('\n')}\n${JSON.stringify(result, null, 2)}\n`);
  return result;
}

describe('soak', () => {
  it(`holds every invariant through ${FIXED.faults} faults of seed ${FIXED.seed}`, async () => {
    const r = await soak(FIXED.seed, FIXED.faults);
    expect(r['faults']).toBe(FIXED.faults);
    held(r);
  }, RUN_TIMEOUT_MS);

  it(`holds every invariant through ${RANDOM_FAULTS} faults of a random seed`, async () => {
    const seed = randomSeed();
    process.stderr.write(`soak: random seed ${seed} (replay: npm run soak -- --seed ${seed} --faults ${RANDOM_FAULTS} --sessions ${SESSIONS} --kinds ${KINDS.join(',')})\n`);
    const r = await soak(seed, RANDOM_FAULTS);
    held(r);
  }, RUN_TIMEOUT_MS);
});
