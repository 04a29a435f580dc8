#!/usr/bin/env node
// The `mori` command: loads the compiled CLI from out/cli (built by `npm install`'s prepare step).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../out/cli/main/cli/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('mori: the CLI is not built yet; run `npm run build:cli` (or `npm install`) first\n');
  process.exit(3);
}
await import(entry.href);
