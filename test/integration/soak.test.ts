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

async function soak(seed: number, faults: number): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const result = await runSoak({ seed, faults, sessions: SESSIONS, log: (l) => lines.push(l) });
  if (result['pass'] !== true) process.stderr.write(`${lines.join('\n')}\n${JSON.stringify(result, null, 2)}\n`);
  return result;
}

describe('soak', () => {
  it(`holds every invariant through ${FIXED.faults} faults of seed ${FIXED.seed}`, async () => {
    const r = await soak(FIXED.seed, FIXED.faults);
    expect(r['faults']).toBe(FIXED.faults);
    expect(r['violations']).toEqual(Object.fromEntries(Object.keys(r['violations'] as object).map((k) => [k, 0])));
    expect(r['pass']).toBe(true);
  }, RUN_TIMEOUT_MS);

  it(`holds every invariant through ${RANDOM_FAULTS} faults of a random seed`, async () => {
    const seed = randomSeed();
    process.stderr.write(`soak: random seed ${seed} (replay: npm run soak -- --seed ${seed} --faults ${RANDOM_FAULTS} --sessions ${SESSIONS})\n`);
    const r = await soak(seed, RANDOM_FAULTS);
    expect(r['violations']).toEqual(Object.fromEntries(Object.keys(r['violations'] as object).map((k) => [k, 0])));
    expect(r['pass']).toBe(true);
  }, RUN_TIMEOUT_MS);
});
