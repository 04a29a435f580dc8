// Runs every bench/*.bench.ts in its own process, one after another (so they do not compete for
// the two cores), and prints one JSON document with each benchmark's result and pass/fail verdict.
// Each benchmark prints a single JSON object as the last line of its stdout (the runner adds how many
// seconds it took, and the whole run's):
//   { "name": string, "budget": string, "pass": boolean, ...figures }
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

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
process.stdout.write(JSON.stringify({ pass: allPass, seconds: Math.round(performance.now() / 1000), results }, null, 2) + '\n');
process.exitCode = allPass ? 0 : 1;
