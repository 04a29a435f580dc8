// The project's `.git/config` and attributes are written by whoever works in the project: Mori's own
// git runs (checkpoints, `mori init`'s exclude, the resume prompt, `mori status`) must start none of
// the programs they name, and still read HEAD and the changed files right. Real git, real scripts.
import { chmodSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeRepoConfig } from '../../../main/git/private-git-dir.js';
import { gitChangedFiles, gitHead, gitStateAsync } from '../../../main/git/git-info.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { writeCheckpoint } from '../../../main/supervisor/checkpoints/checkpoint.js';
import { moriIn, tempDir } from '../../../testkit/mori-cli.js';
import { offlineCheckpointPorts } from '../../../main/cli/offline-session-write.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

const commitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', dir, ...args], { env: commitEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A script that leaves `<markers>/<name>` behind when run, then behaves as `tail` says. */
function markerScript(bin: string, markers: string, name: string, tail: string): string {
  const file = path.join(bin, name);
  writeFileSync(file, `#!/bin/sh\ntouch "${path.join(markers, name)}"\n${tail}\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * A committed project whose config names a program for every key git could run one from, whose
 * `.gitattributes` and `.git/info/attributes` route files through filter drivers, and whose tracked
 * file was then rewritten at the same size (so status must hash its contents through the filter).
 */
function hostileRepo(): { project: string; markers: string; head: string } {
  const project = tempDir('hostile-git');
  const markers = tempDir('git-markers');
  const bin = tempDir('git-scripts');
  git(project, 'init', '-q');
  writeFileSync(path.join(project, 'code.txt'), 'version one\n');
  writeFileSync(path.join(project, 'other.dat'), 'data one\n');
  writeFileSync(path.join(project, '.gitattributes'), '*.txt filter=tree diff=tree\n');
  git(project, 'add', '.');
  git(project, 'commit', '-q', '-m', 'start');
  const head = git(project, 'rev-parse', 'HEAD').trim();
  writeFileSync(path.join(project, '.git', 'info', 'attributes'), '*.dat filter=info\n');
  const hooks = path.join(bin, 'hooks');
  mkdirSync(hooks);
  for (const hook of ['post-index-change', 'pre-auto-gc', 'reference-transaction']) markerScript(hooks, markers, hook, 'exit 0');
  const set = (key: string, value: string): void => void git(project, 'config', key, value);
  set('core.fsmonitor', markerScript(bin, markers, 'fsmonitor', 'exit 1'));
  set('core.hooksPath', hooks);
  set('core.pager', markerScript(bin, markers, 'pager', 'cat'));
  set('pager.status', markerScript(bin, markers, 'pager-status', 'cat'));
  set('core.editor', markerScript(bin, markers, 'editor', 'exit 0'));
  set('core.askPass', markerScript(bin, markers, 'askpass', 'exit 0'));
  set('core.sshCommand', markerScript(bin, markers, 'ssh', 'exit 1'));
  set('credential.helper', `!${markerScript(bin, markers, 'credential', 'exit 0')}`);
  set('diff.external', markerScript(bin, markers, 'diff-external', 'exit 0'));
  set('diff.tree.textconv', markerScript(bin, markers, 'textconv', 'cat "$1"'));
  set('filter.tree.clean', markerScript(bin, markers, 'clean-tree', 'cat'));
  set('filter.tree.smudge', markerScript(bin, markers, 'smudge-tree', 'cat'));
  set('filter.tree.required', 'true');
  set('filter.info.process', markerScript(bin, markers, 'process-info', 'exit 1'));
  set('filter.info.clean', markerScript(bin, markers, 'clean-info', 'cat'));
  set('gpg.program', markerScript(bin, markers, 'gpg', 'exit 1'));
  set('log.showSignature', 'true');
  set('gc.auto', '1');
  set('status.showUntrackedFiles', 'all');
  // Same sizes, new contents, mtimes moved: git cannot tell from stat data and hashes both files.
  const later = new Date(Date.now() + 5_000);
  writeFileSync(path.join(project, 'code.txt'), 'version two\n');
  writeFileSync(path.join(project, 'other.dat'), 'data two!\n');
  utimesSync(path.join(project, 'code.txt'), later, later);
  utimesSync(path.join(project, 'other.dat'), later, later);
  return { project, markers, head };
}

describe("Mori's git runs in a project whose git config names programs", () => {
  it('a plain git status in that project runs them (the setup is live)', () => {
    const { project, markers } = hostileRepo();
    spawnSync('git', ['-C', project, 'status', '--porcelain'], { encoding: 'utf8' });
    const ran = readdirSync(markers);
    expect(ran).toContain('fsmonitor');
    expect(ran.some((m) => m.startsWith('clean-') || m.startsWith('process-'))).toBe(true);
  });

  it('a checkpoint runs none of them and records HEAD and the changed files', async () => {
    const { project, markers, head } = hostileRepo();
    const home = tempDir('hostile-home');
    const init = moriIn(home, ['init', project, '--name', 'hostile', '--agent', 'shell', '--command', 'bash', '--backend', 'direct', '--json']);
    expect(init.code, init.err).toBe(0);
    const stateDir = String(init.json()['stateDir']);
    expect(readdirSync(markers)).toEqual([]);

    const r = await writeCheckpoint(stateDir, project, ports);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (r.ok) {
      expect(r.value.checkpoint.gitHead).toBe(head);
      expect(r.value.checkpoint.changedFiles.sort()).toEqual(['code.txt', 'other.dat']);
    }
    const stored = readSessionFile(stateDir);
    expect(stored.ok && stored.value.lastCheckpoint?.gitHead).toBe(head);
    expect(readdirSync(markers)).toEqual([]);
  });

  it('a config rewritten over and over while checkpoints run never gets its programs run', async () => {
    const { project, markers, head } = hostileRepo();
    const config = path.join(project, '.git', 'config');
    const evil = readFileSync(config, 'utf8');
    const plain = evil.replace(/^\[filter "[^"]*"\]\n(?:\t.*\n)*/gm, '');
    expect(plain).not.toMatch(/filter/);
    writeFileSync(path.join(project, '.git', 'config.evil'), evil);
    writeFileSync(path.join(project, '.git', 'config.plain'), plain);
    // Swaps the plain and the hostile config in place as fast as it can, so any two reads of the
    // config by one checkpoint are likely to see different files.
    const flipper = spawn('sh', ['-c', 'while :; do cp .git/config.plain .git/config.new && mv .git/config.new .git/config; cp .git/config.evil .git/config.new && mv .git/config.new .git/config; done'], { cwd: project, stdio: 'ignore' });
    try {
      const stateDir = tempDir('hostile-flip-state');
      writeFileSync(path.join(stateDir, 'session.json'), '{}');
      for (let i = 0; i < 15; i++) {
        utimesSync(path.join(project, 'code.txt'), new Date(Date.now() + i * 1000), new Date(Date.now() + i * 1000));
        const git = await gitStateAsync(project);
        expect(git.head).toBe(head);
        expect(git.changedFiles.sort()).toEqual(['code.txt', 'other.dat']);
      }
    } finally {
      flipper.kill('SIGKILL');
    }
    expect(readdirSync(markers)).toEqual([]);
  }, 60_000);

  it('reads a linked worktree and a subdirectory of the project as git does', async () => {
    const { project, markers, head } = hostileRepo();
    const linked = path.join(tempDir('hostile-linked'), 'wt');
    // The test's own git, with the hostile config switched off for this one command.
    const off = ['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'filter.tree.smudge=', 'filter.tree.required=false', 'filter.info.process=', 'filter.info.smudge='].flatMap((c) => ['-c', c]);
    git(project, ...off, 'worktree', 'add', '-q', '-b', 'side', linked);
    expect(readdirSync(markers)).toEqual([]);
    writeFileSync(path.join(linked, 'new-in-linked.txt'), 'x\n');
    const inLinked = await gitStateAsync(linked);
    expect(inLinked.head).toBe(head);
    expect(inLinked.changedFiles).toEqual(['new-in-linked.txt']);
    mkdirSync(path.join(project, 'sub'));
    writeFileSync(path.join(project, 'sub', 'deep.txt'), 'x\n');
    const inSub = await gitStateAsync(path.join(project, 'sub'));
    expect(inSub.head).toBe(head);
    expect(inSub.changedFiles.sort()).toEqual(['code.txt', 'other.dat', 'sub/']);
    expect(gitChangedFiles(path.join(project, 'sub')).sort()).toEqual(['code.txt', 'other.dat', 'sub/']);
    expect(gitHead(linked)).toBe(head);
    expect(readdirSync(markers)).toEqual([]);
  }, 60_000);

  it('mori status, mori prompt and mori checks run none of them; the prompt lists the changed files', () => {
    const { project, markers } = hostileRepo();
    const home = tempDir('hostile-cli-home');
    expect(moriIn(home, ['init', project, '--name', 'cli', '--agent', 'shell', '--command', 'bash', '--backend', 'direct']).code).toBe(0);
    expect(moriIn(home, ['status', 'cli']).code).toBe(0);
    const prompt = moriIn(home, ['prompt', 'cli']);
    expect(prompt.code, prompt.err).toBe(0);
    expect(prompt.out).toContain('code.txt');
    expect(prompt.out).toContain('other.dat');
    expect(moriIn(home, ['checks', 'cli']).code).toBe(0);
    expect(readdirSync(markers)).toEqual([]);
  });
});

describe('the private config of a status', () => {
  it('keeps the layout keys of the repository config and drops every key that names a program', () => {
    const list = [
      'core.repositoryformatversion\n1',
      'core.ignorecase\ntrue',
      'core.excludesfile\n/x/"quoted" \\ path',
      'extensions.objectformat\nsha256',
      'core.fsmonitor\n/bin/evil',
      'filter.x.clean\n/bin/evil',
      'core.hookspath\n/tmp/hooks',
      'include.path\n/tmp/more',
      'core.bare\ntrue',
      'core.filemode',
      '',
    ].join('\0');
    expect(safeRepoConfig(list)).toBe(
      '[core]\n\tbare = false\n\trepositoryformatversion = "1"\n\tignorecase = "true"\n\texcludesfile = "/x/\\"quoted\\" \\\\ path"\n\tfilemode = true\n[extensions]\n\tobjectformat = "sha256"\n',
    );
  });
});

describe("a repository's config read once per process and kept while unchanged", () => {
  it('a safe key added to the config, then removed, is seen by the next run each time', async () => {
    const project = tempDir('config-kept');
    git(project, 'init', '-q');
    writeFileSync(path.join(project, 'a.txt'), 'a\n');
    writeFileSync(path.join(project, 'b.log'), 'b\n');
    const ignore = path.join(tempDir('config-kept-ignore'), 'ignore');
    writeFileSync(ignore, '*.log\n');
    const config = path.join(project, '.git', 'config');
    // An old config, read and kept; then one written just now (not kept: it may change again within
    // the file system's clock tick); then once more.
    const old = new Date(Date.now() - 60_000);
    utimesSync(config, old, old);
    expect((await gitStateAsync(project)).changedFiles.sort()).toEqual(['a.txt', 'b.log']);
    git(project, 'config', 'core.excludesFile', ignore);
    expect((await gitStateAsync(project)).changedFiles).toEqual(['a.txt']);
    git(project, 'config', '--unset', 'core.excludesFile');
    expect((await gitStateAsync(project)).changedFiles.sort()).toEqual(['a.txt', 'b.log']);
  });
});
