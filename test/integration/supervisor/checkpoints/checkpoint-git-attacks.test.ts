// The project's `.git/config`, `.git/hooks`, `.git/info/attributes` and `.gitattributes` are written
// by whoever works in the project: snapshots, changes, diffs and rollbacks (and the new git
// subcommands under them) must start none of the programs they name. Each program leaves a marker
// file when run; a plain git in the same repository runs them (the setup is live). Real git, real scripts.
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepoGit } from '../../../../main/git/repo-git.js';
import { sessionChanges, sessionDiff } from '../../../../main/supervisor/checkpoints/changes.js';
import { writeCheckpoint } from '../../../../main/supervisor/checkpoints/checkpoint.js';
import { rollbackSession } from '../../../../main/supervisor/checkpoints/rollback.js';
import { tempDir } from '../../../../testkit/mori-cli.js';
import { git, projectWithSession, repoFacts, type Project } from '../../../support/snapshot-repo.js';
import { offlineCheckpointPorts } from '../../../../main/cli/offline-session-write.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

function markerScript(dir: string, markers: string, name: string, tail: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\ntouch "${path.join(markers, name)}"\n${tail}\n`);
  chmodSync(file, 0o755);
  return file;
}

const HOOKS = ['post-checkout', 'reference-transaction', 'post-index-change', 'pre-commit', 'post-commit', 'pre-auto-gc', 'post-rewrite'];

/** A session's project whose config, hooks and attributes name a marker program for everything git could run. */
async function hostile(name: string): Promise<{ p: Project; markers: string; outside: string }> {
  const p = await projectWithSession(name);
  const markers = tempDir('attack-markers');
  const bin = tempDir('attack-bin');
  const outside = tempDir('attack-outside');
  writeFileSync(path.join(outside, 'secret'), 'outside the project\n');
  writeFileSync(path.join(p.project, '.gitattributes'), '*.txt filter=tree diff=tree\n');
  writeFileSync(path.join(p.project, 'code.txt'), 'version one\n');
  symlinkSync(path.join(outside, 'secret'), path.join(p.project, 'out-link'));
  git(p.project, 'add', '-A');
  git(p.project, 'commit', '-q', '-m', 'attributes');
  writeFileSync(path.join(p.project, '.git', 'info', 'attributes'), '*.dat filter=info\n');
  writeFileSync(path.join(p.project, 'data.dat'), 'data\n');
  const hooksPath = path.join(bin, 'hooks');
  mkdirSync(hooksPath);
  for (const hook of HOOKS) {
    markerScript(hooksPath, markers, `hookspath-${hook}`, 'exit 0');
    // The default hooks dir too, in case core.hooksPath were dropped.
    const own = markerScript(path.join(p.project, '.git', 'hooks'), markers, `default-${hook}`, 'exit 0');
    symlinkSync(own, path.join(hooksPath, hook));
    spawnSync('cp', [own, path.join(p.project, '.git', 'hooks', hook)]);
  }
  const set = (key: string, value: string): void => void git(p.project, 'config', key, value);
  set('core.fsmonitor', markerScript(bin, markers, 'fsmonitor', 'exit 1'));
  set('core.hooksPath', hooksPath);
  set('core.pager', markerScript(bin, markers, 'pager', 'cat'));
  set('diff.external', markerScript(bin, markers, 'diff-external', 'exit 0'));
  set('diff.tree.textconv', markerScript(bin, markers, 'textconv', 'cat "$1"'));
  set('diff.tree.command', markerScript(bin, markers, 'diff-command', 'exit 0'));
  set('filter.tree.clean', markerScript(bin, markers, 'clean-tree', 'cat'));
  set('filter.tree.smudge', markerScript(bin, markers, 'smudge-tree', 'cat'));
  set('filter.tree.required', 'true');
  set('filter.info.process', markerScript(bin, markers, 'process-info', 'exit 1'));
  set('filter.info.clean', markerScript(bin, markers, 'clean-info', 'cat'));
  set('gpg.program', markerScript(bin, markers, 'gpg', 'exit 1'));
  set('commit.gpgSign', 'true');
  set('core.logAllRefUpdates', 'always');
  set('gc.auto', '1');
  return { p, markers, outside };
}

describe('checkpoints, changes and rollback in a project whose git config, hooks and attributes name programs', () => {
  it('a plain git there runs them (the setup is live)', async () => {
    const { p, markers } = await hostile('live');
    writeFileSync(path.join(p.project, 'code.txt'), 'changed\n');
    spawnSync('git', ['-C', p.project, 'add', '-A'], { stdio: 'ignore' });
    spawnSync('git', ['-C', p.project, 'checkout', '-q', 'HEAD', '--', 'code.txt'], { stdio: 'ignore' });
    spawnSync('git', ['-C', p.project, 'update-ref', 'refs/x', 'HEAD'], { stdio: 'ignore' });
    const ran = readdirSync(markers);
    expect(ran).toContain('fsmonitor');
    expect(ran).toContain('clean-tree');
    expect(ran).toContain('smudge-tree');
    expect(ran.some((m) => m.endsWith('reference-transaction'))).toBe(true);
  });

  it('none runs through checkpoints, listing, diffs and rollbacks, and the symlink out of the project is recorded as a link', async () => {
    const { p, markers, outside } = await hostile('attacked');
    const facts = repoFacts(p.project, false);
    const take = async () => {
      const r = await writeCheckpoint(p.stateDir, p.project, ports);
      if (!r.ok) throw new Error(r.message);
      return r.value.checkpoint.snapshot!;
    };
    const first = await take();
    expect(git(p.project, 'cat-file', '-p', `${first.commit}:out-link`)).toBe(path.join(outside, 'secret'));
    expect(git(p.project, 'ls-tree', first.commit, 'out-link')).toMatch(/^120000 /);
    writeFileSync(path.join(p.project, 'code.txt'), 'version two\n');
    writeFileSync(path.join(p.project, 'data.dat'), 'data two\n');
    writeFileSync(path.join(p.project, 'more.txt'), 'more\n');
    await take();
    const changes = await sessionChanges(p.stateDir, 'start');
    expect(changes.ok && changes.value.files.map((f) => f.path)).toEqual(['code.txt', 'data.dat', 'more.txt']);
    const diff = await sessionDiff(p.stateDir, 'start');
    expect(diff.ok && diff.value.files[0]!.patch).toContain('-version one\n+version two');
    const rolled = await rollbackSession({ stateDir: p.stateDir, to: 'start' }, ports);
    expect(rolled.ok, rolled.ok ? '' : rolled.message).toBe(true);
    expect(readFileSync(path.join(p.project, 'code.txt'), 'utf8')).toBe('version one\n');
    expect(readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('outside the project\n');
    expect(readdirSync(markers)).toEqual([]);
    // No reflog for Mori's refs even with logAllRefUpdates=always, and the person's facts as they were.
    expect(readdirSync(path.join(p.project, '.git', 'logs', 'refs'))).not.toContain('mori');
    expect(repoFacts(p.project, false)).toEqual(facts);
  }, 60_000);

  it('refuses options that would run a filter, a textconv or a diff program, and refs outside refs/mori/', async () => {
    const { p, markers } = await hostile('options');
    const opened = await openRepoGit(p.project);
    if (!opened.ok) throw new Error('not opened');
    try {
      const g = opened.git;
      await expect(g.run(['cat-file', '--filters', 'HEAD:code.txt'])).rejects.toThrow(/never passes/);
      await expect(g.run(['cat-file', '-p', 'HEAD:code.txt'])).rejects.toThrow(/only `--batch`/);
      await expect(g.run(['diff-tree', '--ext-diff', 'HEAD', 'HEAD'])).rejects.toThrow(/never passes/);
      await expect(g.run(['diff-tree', '--textconv', 'HEAD', 'HEAD'])).rejects.toThrow(/never passes/);
      expect(() => g.run(['checkout', 'HEAD'])).toThrow(/not a private-dir subcommand/);
      expect(() => g.updateMoriRefs([{ op: 'delete', ref: 'refs/heads/master' }])).toThrow(/outside refs\/mori/);
      expect(() => g.updateMoriRefs([{ op: 'delete', ref: 'refs/mori/../heads/master' }])).toThrow(/outside refs\/mori/);
      // diff-tree always gets --no-ext-diff --no-textconv: a diff of the .txt file runs neither.
      const r = await g.run(['diff-tree', '-p', 'HEAD~1', 'HEAD']);
      expect(r.code).toBe(0);
    } finally {
      opened.git.close();
    }
    expect(readdirSync(markers)).toEqual([]);
  });
});
