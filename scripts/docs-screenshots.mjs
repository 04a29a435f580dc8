#!/usr/bin/env node
// Copies the window's screenshots README links (docs/screenshots/NAME.png) from where the end-to-end
// tests write them (out/e2e-screenshots/NAME.png), after a run of those tests. Says which linked ones
// the run did not take. Plain Node, run from the repository root: `node scripts/docs-screenshots.mjs`.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const readme = readFileSync('README.md', 'utf8');
const names = [...new Set([...readme.matchAll(/\(docs\/screenshots\/([\w.-]+\.png)\)/g)].map((m) => m[1]))];
const missing = [];
let copied = 0;
for (const name of names) {
  const from = path.join('out', 'e2e-screenshots', name);
  if (!existsSync(from)) {
    missing.push(name);
    continue;
  }
  copyFileSync(from, path.join('docs', 'screenshots', name));
  copied++;
}
process.stdout.write(`copied ${copied} of ${names.length} screenshots to docs/screenshots/\n`);
if (missing.length > 0) process.stdout.write(`not taken by this run (kept as they were): ${missing.join(', ')}\n`);
