// Vitest global setup: compiles the CLI (tsc, incremental) and bundles it as `npm run build:cli`
// does, so tests that spawn `mori` run current code through the same files `mori` runs.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.cli.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { cwd: root, stdio: 'inherit' });
}
