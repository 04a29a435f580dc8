// A process that exits while git runs removes its private git dirs as it goes (private-git-dir.ts):
// the 1,000-fault soak found two left after the last `mori down`, by a daemon whose shutdown ran past
// its deadline with checkpoints under way (nothing starts after that last down to sweep them). Only
// the dir is removed: the repository its links point into stays whole. A real child process, a real
// repository, a temp dir of the test's own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'priv-exit-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('a process exiting mid-run leaves no private git dir, and the repository it pointed into is untouched', () => {
  const tmp = path.join(root, 'tmp');
  const repo = path.join(root, 'repo');
  spawnSync('mkdir', ['-p', tmp, repo]);
  expect(spawnSync('git', ['init', '-q', repo]).status).toBe(0);
  const fixture = fileURLToPath(new URL('../../support/fixtures/git/exit-mid-run.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', fixture, repo], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(1);
  const made = r.stdout.trim();
  expect(path.dirname(made)).toBe(tmp);
  expect(path.basename(made)).toMatch(/^mori-git-\d+-/);
  expect(existsSync(made)).toBe(false);
  expect(readdirSync(tmp).filter((n) => n.startsWith('mori-git-'))).toEqual([]);
  // Its links (refs, info) are removed, never followed.
  expect(existsSync(path.join(repo, '.git', 'refs', 'heads'))).toBe(true);
  expect(existsSync(path.join(repo, '.git', 'info'))).toBe(true);
});
