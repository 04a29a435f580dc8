// The sweep of abandoned private git dirs, on real directories in a temp dir of its own: a dead
// process's dir goes, a live one's stays, an hour-old one goes whoever made it, and nothing that is
// not our own real directory is touched (a symlink under the name, and what it points to, stay).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepPrivateGitDirs } from '../../../main/git/private-git-sweep.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'sweep-test-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** A private git dir as makePrivateGitDir lays it out: config, HEAD, a link into a repository. */
function privateDir(name: string, target: string): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'config'), '[core]\n');
  writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  symlinkSync(target, path.join(dir, 'refs'));
  return dir;
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('sweepPrivateGitDirs', () => {
  it("removes a dead process's dirs and hour-old ones, keeps a live process's and a fresh one without a pid", async () => {
    const repoRefs = path.join(tmp, 'repo-refs');
    mkdirSync(repoRefs);
    writeFileSync(path.join(repoRefs, 'keep'), 'the repository');
    const dead = deadPid();
    privateDir(`mori-git-${dead}-aB3dE9`, repoRefs);
    privateDir(`mori-git-${process.pid}-Zz9Yy8`, repoRefs);
    privateDir('mori-git-Qw3rTy', repoRefs);
    const old = privateDir(`mori-git-${process.pid}-0ldD1r`, repoRefs);
    const hoursAgo = (Date.now() - 2 * 60 * 60_000) / 1000;
    utimesSync(old, hoursAgo, hoursAgo);

    const removed = await sweepPrivateGitDirs(tmp);

    expect(removed.sort()).toEqual([`mori-git-${dead}-aB3dE9`, `mori-git-${process.pid}-0ldD1r`].sort());
    expect(existsSync(path.join(tmp, `mori-git-${process.pid}-Zz9Yy8`))).toBe(true);
    expect(existsSync(path.join(tmp, 'mori-git-Qw3rTy'))).toBe(true);
    // The links were removed, never followed: the repository's refs are whole.
    expect(existsSync(path.join(repoRefs, 'keep'))).toBe(true);
  });

  it('leaves a symlink under the name alone, with what it points to, and names that are not its own', async () => {
    const victim = path.join(tmp, 'victim');
    mkdirSync(victim);
    writeFileSync(path.join(victim, 'precious'), 'x');
    const dead = deadPid();
    symlinkSync(victim, path.join(tmp, `mori-git-${dead}-L1nkEd`));
    const hoursAgo = (Date.now() - 2 * 60 * 60_000) / 1000;
    for (const name of ['mori-git-exclude-abc123', 'mori-gitx-123-abcdef', `mori-git-${dead}-toolongname`]) {
      mkdirSync(path.join(tmp, name));
      utimesSync(path.join(tmp, name), hoursAgo, hoursAgo);
    }

    expect(await sweepPrivateGitDirs(tmp)).toEqual([]);
    expect(existsSync(path.join(victim, 'precious'))).toBe(true);
    expect(existsSync(path.join(tmp, `mori-git-${dead}-L1nkEd`))).toBe(true);
    expect(existsSync(path.join(tmp, 'mori-git-exclude-abc123'))).toBe(true);
  });

  it('says nothing and removes nothing when the temp dir cannot be read', async () => {
    expect(await sweepPrivateGitDirs(path.join(tmp, 'missing'))).toEqual([]);
  });
});
