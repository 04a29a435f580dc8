#!/usr/bin/env node
// `npm start`: builds and starts the desktop app when Electron's binary is installed; otherwise says
// why and runs the same window in a browser with `mori ui` (the binary cannot always be downloaded:
// offline installs, CI, machines without a display). Plain Node, run from the repository root.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function electronBinary() {
  try {
    // The electron package exports the binary's path, and throws when it was never downloaded.
    const bin = require('electron');
    return typeof bin === 'string' && existsSync(bin) ? { bin } : { why: `Electron's binary is missing at ${bin}` };
  } catch (err) {
    return { why: String(err?.message ?? err).split('\n')[0] };
  }
}

function run(args) {
  const r = spawnSync(npm, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const electron = electronBinary();
run(['run', 'build:cli']);
if ('bin' in electron) {
  run(['run', 'build:app']);
  const child = spawn(electron.bin, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stderr.write(`mori: the desktop app cannot start here (${electron.why}); \`node node_modules/electron/install.js\` downloads it.\nmori: opening the same window in your browser instead (mori ui).\n`);
  const child = spawn(process.execPath, ['bin/mori.js', 'ui', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}
