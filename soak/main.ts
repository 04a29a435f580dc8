// `npm run soak -- [--faults N] [--minutes M] [--seed S] [--sessions K] [--crash-loop-count C] [--kinds K,…] [--keep]`: the seeded soak,
// its seed printed first (stderr) so a failing run replays, then one JSON object on stdout; exits 1
// on any violation. Runs as its own Node process (tsx).
import { parseArgs } from 'node:util';
import { randomSeed } from './prng.js';
import { runSoak } from './runner.js';
import { FAULT_KINDS, type FaultKind } from './schedule.js';

/** Without --faults or --minutes: the CI run's size. */
const DEFAULT_FAULTS = 100;
/** The night: twenty sessions, as many as a person runs side by side. */
const DEFAULT_SESSIONS = 20;

const { values } = parseArgs({
  options: {
    faults: { type: 'string' },
    minutes: { type: 'string' },
    seed: { type: 'string' },
    sessions: { type: 'string' },
    keep: { type: 'boolean' },
    'crash-loop-count': { type: 'string' },
    kinds: { type: 'string' },
  },
});

function count(name: string, raw: string | undefined, fallback: number | undefined): number | undefined {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    process.stderr.write(`soak: --${name} must be a positive number, not "${raw}"\n`);
    process.exit(2);
  }
  return n;
}

const seed = values.seed !== undefined ? Number(values.seed) >>> 0 : randomSeed();
process.stderr.write(`soak: seed ${seed}\n`);
const kinds = values.kinds?.split(',').map((k) => k.trim());
const unknown = kinds?.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k)) ?? [];
if (unknown.length > 0 || kinds?.length === 0) {
  process.stderr.write(`soak: --kinds takes a comma-separated list of ${FAULT_KINDS.join(', ')}; not "${unknown.join(', ')}"\n`);
  process.exit(2);
}
const minutes = count('minutes', values.minutes, undefined);
const result = await runSoak({
  seed,
  // Both given: whichever comes first ends the faults (a night's run bounded by the time it has).
  faults: minutes === undefined || values.faults !== undefined ? count('faults', values.faults, DEFAULT_FAULTS) : undefined,
  minutes,
  sessions: count('sessions', values.sessions, DEFAULT_SESSIONS)!,
  keep: values.keep === true,
  crashLoopCount: count('crash-loop-count', values['crash-loop-count'], undefined),
  kinds: kinds as FaultKind[] | undefined,
  log: (l) => process.stderr.write(`${l}\n`),
});
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.exit(result['pass'] === true ? 0 : 1);
