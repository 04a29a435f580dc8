// The seeded soak, short: sessions of the soak agent under the real daemon (`mori up --daemon`),
// faults from the schedule of a fixed seed and of a random one (printed, so a failure replays with
// `npm run soak -- --seed S`), every invariant held. Real processes, tmux, ptys and signals.
import { describe, expect, it } from 'vitest';
import { randomSeed } from '../../soak/prng.js';
import { runSoak } from '../../soak/runner.js';

/** Fewer sessions than the night's 20: each is a Node start and a git repository on two shared cores. */
const SESSIONS = 6;
/** The fixed seed's run and the random one's: 110 faults together. */
const FIXED = { seed: 20261206, faults: 60 };
const RANDOM_FAULTS = 50;
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
  const result = await runSoak({ seed, faults, sessions: SESSIONS, log: (l) => lines.push(l) });
  // A failing run prints its log and JSON: the seed and the faults replay it.
  if (result['pass'] !== true) process.stderr.write(`${lines.join('\n')}\n${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/**
 * Run on asking (`MORI_SOAK=1 npx vitest run test/integration/soak.test.ts`), not in every CI run yet:
 * the 1,000-fault run with every fault family still breaks invariants (a second resume after a sleep
 * left to the agent's own retries, a nudge into an agent retrying a request, a tmux control client
 * outliving a killed daemon), so a short run can go red by chance and hide every other result. A run's
 * two soaks take 3–6 minutes on two loaded cores. `npm run soak` runs the same harness by hand.
 */
describe.skipIf(process.env['MORI_SOAK'] !== '1')('soak', () => {
  it(`holds every invariant through ${FIXED.faults} faults of seed ${FIXED.seed}`, async () => {
    const r = await soak(FIXED.seed, FIXED.faults);
    expect(r['faults']).toBe(FIXED.faults);
    held(r);
  }, RUN_TIMEOUT_MS);

  it(`holds every invariant through ${RANDOM_FAULTS} faults of a random seed`, async () => {
    const seed = randomSeed();
    process.stderr.write(`soak: random seed ${seed} (replay: npm run soak -- --seed ${seed} --faults ${RANDOM_FAULTS} --sessions ${SESSIONS})\n`);
    const r = await soak(seed, RANDOM_FAULTS);
    held(r);
  }, RUN_TIMEOUT_MS);
});
