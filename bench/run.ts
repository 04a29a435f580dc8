// Runs every bench/*.bench.ts in its own process, one after another (so they do not compete for
// the two cores), once the machine has settled, and prints one JSON document with each benchmark's result and pass/fail verdict.
// Each benchmark prints a single JSON object as the last line of its stdout (the runner adds how many
// seconds it took, and the whole run's):
//   { "name": string, "budget": string, "pass": boolean, ...figures }
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Idle share of both cores over one window, from /proc/stat (Linux); null where it cannot be read. */
function idleShare(windowMs: number): number | null {
  const read = (): number[] | null => {
    try {
      return (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    } catch {
      return null;
    }
  };
  const a = read();
  spawnSync('sleep', [String(windowMs / 1000)]);
  const b = read();
  if (!a || !b) return null;
  const delta = b.map((x, i) => x - (a[i] ?? 0));
  const total = delta.reduce((n, x) => n + x, 0);
  // Fields 4 and 5: idle and iowait.
  return total > 0 ? ((delta[3] ?? 0) + (delta[4] ?? 0)) / total : null;
}

/**
 * Waits (at most SETTLE_MAX_MS) until the machine has been idle for SETTLE_WINDOWS windows in a row:
 * `npm run bench` builds the CLI just before, and whatever ran before it (a test run) may still be
 * ending; the first benchmark measured on their tail would be measured on a busy machine.
 */
const SETTLE_WINDOW_MS = 1_000;
const SETTLE_WINDOWS = 3;
/** At least this share of the two cores idle: a quiet machine here sits at 97–99 %. */
const SETTLE_IDLE_SHARE = 0.9;
const SETTLE_MAX_MS = 60_000;
const settleStart = performance.now();
for (let quiet = 0; quiet < SETTLE_WINDOWS && performance.now() - settleStart < SETTLE_MAX_MS; ) {
  const idle = idleShare(SETTLE_WINDOW_MS);
  if (idle === null) break;
  quiet = idle >= SETTLE_IDLE_SHARE ? quiet + 1 : 0;
}
const settledSeconds = Math.round((performance.now() - settleStart) / 100) / 10;
process.stderr.write(`bench: the machine settled in ${settledSeconds} s\n`);

const results: unknown[] = [];
let allPass = true;
for (const file of files) {
  process.stderr.write(`bench: ${file}\n`);
  const t0 = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Math.round((performance.now() - t0) / 1000);
  const last = run.stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed = JSON.parse(last) as { pass?: boolean };
    if (parsed.pass !== true) allPass = false;
    results.push({ file, seconds, ...parsed });
  } catch {
    allPass = false;
    results.push({ file, seconds, pass: false, error: `exit ${run.status}; no JSON result`, stdoutTail: last.slice(-500) });
  }
}
process.stdout.write(JSON.stringify({ pass: allPass, seconds: Math.round(performance.now() / 1000), settledSeconds, results }, null, 2) + '\n');
process.exitCode = allPass ? 0 : 1;
