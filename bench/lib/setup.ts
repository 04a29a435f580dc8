// What the benchmarks set up alike, run in Node by each bench: where the repository and the built
// `mori` are, the fake agent, and a temp dir per run. Benches import this and testkit/ (which the
// tests share), never test/.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The built command (`npm run build:cli`, which `npm run bench` runs first). */
export const BIN = path.join(REPO, 'bin', 'mori.js');
/** The scriptable claude-like agent the tests use too (testkit/fake-agent.mjs). */
export const FAKE_AGENT = path.join(REPO, 'testkit', 'fake-agent.mjs');

/** A fresh temp dir `mori-bench-<name>-…`; the bench removes it when done. */
export function benchDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `mori-bench-${name}-`));
}
