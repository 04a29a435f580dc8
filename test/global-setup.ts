// Vitest global setup: compiles the CLI (tsc, incremental) so tests that spawn `mori` run current code.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.cli.json'], { cwd: root, stdio: 'inherit' });
}
