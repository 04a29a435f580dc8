// Writes test/durations.json, the seconds each test file took in a measured run, which the test
// file order reads (test/measured-order.ts: longest first). Each argument is a run's record, read
// by its shape: Vitest's JSON report (`--reporter=json`), Vitest's cache of its last run
// (node_modules/.vite/vitest/<hash>/results.json), or the text the default reporter printed (a CI
// log: its "✓ test/x.test.ts (3 tests) 1234ms" lines). A later argument's figure for a file wins;
// files no run measured keep their earlier figure, and files that no longer exist are dropped.
// Usage: node scripts/test-durations.mjs [--out=FILE] RECORD... (npm run test:durations runs the
// suite first); --out writes elsewhere than test/durations.json, starting from what FILE holds.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ABOUT = 'Seconds each test file took in a measured run, longest first; test/measured-order.ts runs them in this order. Written by scripts/test-durations.mjs (npm run test:durations).';

/** A test file's path from the repository's root, with / separators, or null when it is not one of ours. */
function repoPath(file) {
  const rel = path.isAbsolute(file) ? path.relative(ROOT, file) : file;
  const slashed = rel.split(path.sep).join('/');
  const at = slashed.lastIndexOf('test/');
  return at < 0 || !slashed.endsWith('.test.ts') ? null : slashed.slice(at);
}

/** Milliseconds per file from one record; throws naming the file when it is none of the three shapes. */
function readRecord(file) {
  const text = readFileSync(file, 'utf8');
  const measured = new Map();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: a reporter's log.
  }
  if (json && Array.isArray(json.testResults)) {
    for (const r of json.testResults) if (typeof r.startTime === 'number' && typeof r.endTime === 'number') measured.set(r.name, r.endTime - r.startTime);
  } else if (json && Array.isArray(json.results)) {
    // The cache's keys are "<project>:<path>".
    for (const [key, v] of json.results) if (typeof v?.duration === 'number') measured.set(key.slice(key.indexOf(':') + 1), v.duration);
  } else if (json) {
    throw new Error(`${file}: JSON that is neither a Vitest JSON report (testResults) nor its results cache (results)`);
  } else {
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    for (const m of plain.matchAll(/[✓×❯↓]\s+(?:\|[^|]*\|\s+|[a-z-]+\s+)?(\S+\.test\.ts)\s+\(\d+ tests?[^)]*\)\s+(\d+(?:\.\d+)?)(ms|s)\b/g)) {
      measured.set(m[1], Number(m[2]) * (m[3] === 's' ? 1000 : 1));
    }
    if (measured.size === 0) throw new Error(`${file}: no "✓ test/….test.ts (N tests) Tms" line in it: not a Vitest log`);
  }
  const ms = new Map();
  for (const [name, duration] of measured) {
    const p = repoPath(name);
    if (p !== null) ms.set(p, duration);
  }
  return ms;
}

const args = process.argv.slice(2);
const OUT = path.resolve(args.find((a) => a.startsWith('--out='))?.slice('--out='.length) ?? path.join(ROOT, 'test', 'durations.json'));
const records = args.filter((a) => !a.startsWith('--out='));
if (records.length === 0) {
  console.error('usage: node scripts/test-durations.mjs [--out=FILE] RECORD...  (a Vitest JSON report, its results.json cache, or a log of its default reporter)');
  process.exit(2);
}
const seconds = new Map();
if (existsSync(OUT)) for (const [p, s] of Object.entries(JSON.parse(readFileSync(OUT, 'utf8')).files ?? {})) seconds.set(p, s);
for (const record of records) {
  for (const [p, ms] of readRecord(record)) seconds.set(p, Math.round(ms / 100) / 10);
}
const files = Object.fromEntries([...seconds].filter(([p]) => existsSync(path.join(ROOT, p))).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
writeFileSync(OUT, `${JSON.stringify({ about: ABOUT, files }, null, 2)}\n`);
console.log(`${path.relative(ROOT, OUT)}: ${Object.keys(files).length} files, the longest ${Object.entries(files)[0]?.join(' at ')} s`);
