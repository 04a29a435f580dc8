// The private git dir copies the repository's HEAD, which the agent may replace: a FIFO there is
// refused at once (makePrivateGitDir reads it on the calling thread, so a plain read would hold the
// daemon's loop for good), a plain HEAD is copied as it is.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePrivateGitDir } from '../../main/git/private-git-dir.js';
import { gitRepo, tempDir } from '../../testkit/mori-cli.js';

function repoPaths(dir: string): { gitDir: string; commonDir: string; topLevel: string } {
  const gitDir = path.join(dir, '.git');
  return { gitDir, commonDir: gitDir, topLevel: dir };
}

describe('makePrivateGitDir', () => {
  it('copies a plain HEAD', () => {
    const dir = tempDir('private-head');
    gitRepo(dir);
    const p = makePrivateGitDir(repoPaths(dir), '[core]\n');
    expect(p).not.toBeNull();
    const gitDir = p?.env['GIT_DIR'] as string;
    expect(readFileSync(path.join(gitDir, 'HEAD'), 'utf8')).toBe(readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8'));
    p?.remove();
  });

  it('refuses a HEAD that is a FIFO, without waiting for a writer', () => {
    const dir = tempDir('private-head-fifo');
    gitRepo(dir);
    const head = path.join(dir, '.git', 'HEAD');
    rmSync(head);
    expect(spawnSync('mkfifo', [head]).status).toBe(0);
    expect(makePrivateGitDir(repoPaths(dir), '[core]\n')).toBeNull();
  });
});
