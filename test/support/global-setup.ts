// Vitest global setup of the projects that run `mori` (integration, e2e, agents-real): compiles the
// CLI (tsc, incremental) and bundles it as `npm run build:cli` does, so tests that spawn `mori` run
// current code through the same files `mori` runs. Each such project calls it; it builds once a run.
// Runs in Vitest's main process.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Per process, not per module: Vitest loads this file once for each project that names it.
const BUILT = Symbol.for('mori.test.cliBuilt');
const holder = globalThis as typeof globalThis & { [BUILT]?: true };

export default function setup(): void {
  if (holder[BUILT]) return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.cli.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { cwd: root, stdio: 'inherit' });
  holder[BUILT] = true;
}
