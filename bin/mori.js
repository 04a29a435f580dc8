#!/usr/bin/env node
// The `mori` command: loads the bundled CLI from out/cli/main/lean (built by `npm install`'s prepare
// step: tsc, then scripts/bundle-cli.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../out/cli/main/lean/mori.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('mori: the CLI is not built yet; run `npm run build:cli` (or `npm install`) first\n');
  process.exit(3);
}
await import(entry.href);
