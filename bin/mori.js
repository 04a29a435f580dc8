#!/usr/bin/env node
// The `mori` command: loads the bundled CLI from out/cli/main/lean (built by `npm install`'s prepare
// step: tsc, then scripts/bundle-cli.mjs), with its compiled code cached between runs (code-cache.js).
// CommonJS (bin/package.json): a command then never starts Node's ES module loader.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { requireWithCodeCache } = require('./code-cache.js');

const bundleDir = path.join(__dirname, '..', 'out', 'cli', 'main', 'lean');
const entry = path.join(bundleDir, 'mori.cjs');
if (!existsSync(entry)) {
  process.stderr.write('mori: the CLI is not built yet; run `npm run build:cli` (or `npm install`) first\n');
  process.exit(3);
}
requireWithCodeCache(bundleDir, entry);
