// `mori init --worktree` and `mori rm --remove-worktree` with real git and the real `mori`: the
// worktree (also asked of the daemon as session.init) is made under the Mori home on a new branch
// with the project's files and the session's state dir in it, `mori ls` shows the branch, the agent runs in it; rm keeps it unless asked, and
// refuses to remove one with uncommitted changes or commits no other branch holds unless --force
// (the branch always stays); session.remove does the same when asked with removeWorktree (force). Hostile branch names and occupied paths are refused, and a smudge filter
// the repository's config names (as an agent could write it) never runs while the files are checked out.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, client } from '../../../support/daemon.js';
import { hasEvent, until, UpHarness } from '../../../support/mori-up.js';

let h: UpHarness;
beforeEach(() => {
  h = new UpHarness('worktree');
  writeFileSync(path.join(h.project, 'a.txt'), 'alpha\n');
  git(h.project, 'add', 'a.txt');
  git(h.project, 'commit', '-q', '-m', 'a');
});
afterEach(() => h.cleanup());

/** Each `mori` command is a Node process on two shared cores. */
const SLOW_MS = 150_000;
const ID = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

function git(dir: string, ...args: string[]): { code: number | null; out: string } {
  const r = spawnSync('git', ['-C', dir, ...args], { env: { ...process.env, ...ID }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout.trim() };
}

/** Where the worktree of session `name` of the test's project is (DESIGN.md §9). */
function worktreeOf(name: string): string {
  const repo = realpathSync(h.project);
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 8);
  return path.join(realpathSync(h.home), 'worktrees', `${path.basename(repo)}-${hash}`, name);
}

function initWorktree(name: string, ...extra: string[]): ReturnType<UpHarness['mori']> {
  mkdirSync(h.home, { recursive: true, mode: 0o700 }); // private, as `mori up` wants it
  return h.mori('init', h.project, '--name', name, '--agent', 'claude', '--backend', 'direct', '--worktree', ...extra);
}

describe('mori init --worktree', () => {
  it('makes the worktree on a new branch with the files and the state dir, shows the branch, and runs the agent there', async () => {
    const r = initWorktree('wt1');
    expect(r.code, r.stderr).toBe(0);
    const wt = worktreeOf('wt1');
    expect(r.stdout).toContain(`worktree: ${wt} (branch mori/wt1)`);
    expect(readFileSync(path.join(wt, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD').out).toBe('mori/wt1');
    expect(git(wt, 'status', '--porcelain').out).toBe('');
    const session = JSON.parse(readFileSync(path.join(wt, '.mori', 'wt1', 'session.json'), 'utf8')) as Record<string, unknown>;
    expect(session).toMatchObject({ projectDir: wt, worktree: { path: wt, branch: 'mori/wt1', repo: realpathSync(h.project) } });
    expect(existsSync(path.join(h.project, '.mori', 'wt1'))).toBe(false);

    const ls = h.mori('ls', '--json');
    const rows = (JSON.parse(ls.stdout) as { sessions: { branch?: string; stateDir: string }[] }).sessions;
    expect(rows).toMatchObject([{ branch: 'mori/wt1', stateDir: path.join(wt, '.mori', 'wt1') }]);
    expect(h.mori('ls').stdout).toContain('⎇ mori/wt1');

    const up = h.up(['wt1']);
    await until('the agent to wait', () => hasEvent(up, 'session.activity', { name: 'wt1', to: 'waiting' }), () => up.stderr());
    const start = h.starts().at(-1) as unknown as { cwd: string };
    expect(start.cwd).toBe(wt);
    up.child.kill('SIGTERM');
    await up.exited;

    // Without --remove-worktree the worktree stays, and the output says where.
    const rm = h.mori('rm', 'wt1', '--yes');
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain(`worktree kept: ${wt} (branch mori/wt1)`);
    expect(readFileSync(path.join(wt, 'a.txt'), 'utf8')).toBe('alpha\n');
  }, SLOW_MS);

  it('takes --branch, and refuses hostile or taken branch names and an occupied path', () => {
    for (const bad of ['-x', '--upload-pack=touch', 'a..b', 'has space', 'x~1', '@{-1}', 'end.lock', 'master']) {
      const r = initWorktree('bad', '--branch', bad);
      expect(r.code, `${bad}: ${r.stdout}`).not.toBe(0);
      expect(r.stderr).toMatch(/branch|option/);
      expect(existsSync(worktreeOf('bad'))).toBe(false);
    }
    expect(git(h.project, 'branch', '--list').out.split('\n')).toHaveLength(1);

    const named = initWorktree('named', '--branch', 'feature/x');
    expect(named.code, named.stderr).toBe(0);
    expect(git(worktreeOf('named'), 'rev-parse', '--abbrev-ref', 'HEAD').out).toBe('feature/x');
    const again = initWorktree('other', '--branch', 'feature/x');
    expect(again.stderr).toMatch(/branch "feature\/x" exists already/);

    const taken = worktreeOf('taken');
    mkdirSync(taken, { recursive: true });
    expect(initWorktree('taken').stderr).toMatch(/exists already/);
    symlinkSync(h.project, worktreeOf('linked'));
    expect(initWorktree('linked').stderr).toMatch(/exists already/);
    expect(git(h.project, 'rev-parse', '--verify', '--quiet', 'refs/heads/mori/linked').code).not.toBe(0);
  }, SLOW_MS);

  it('is asked of the daemon as session.init with worktree: { branch }', async () => {
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    const up = h.mori('up', '--daemon');
    expect(up.code, up.stderr).toBe(0);
    const { c } = await client(h.home);
    try {
      const info = await call(c, 'session.init', { projectDir: h.project, name: 'api', profile: 'claude', backend: 'direct', worktree: { branch: 'api/work' } });
      expect(info).toMatchObject({ name: 'api', branch: 'api/work', projectDir: worktreeOf('api'), stateDir: path.join(worktreeOf('api'), '.mori', 'api') });
      const listed = (await call(c, 'list', {})) as unknown as { name: string; branch?: string }[];
      expect(listed.find((s) => s.name === 'api')?.branch).toBe('api/work');
      await expect(call(c, 'session.init', { projectDir: h.project, name: 'api2', profile: 'claude', backend: 'direct', worktree: { branch: '-evil' } })).rejects.toThrow(/starting with "-"/);
    } finally {
      c.close();
    }
    expect(git(worktreeOf('api'), 'rev-parse', '--abbrev-ref', 'HEAD').out).toBe('api/work');
  }, SLOW_MS);

  it('never runs a filter the repository names while checking the files out', () => {
    const marker = path.join(h.tmp, 'pwned');
    writeFileSync(path.join(h.project, '.gitattributes'), '* filter=evil\n');
    git(h.project, 'add', '.gitattributes');
    git(h.project, 'commit', '-q', '-m', 'attributes');
    writeFileSync(path.join(h.project, '.git', 'info', 'attributes'), '* filter=evil2\n');
    for (const driver of ['evil', 'evil2']) {
      git(h.project, 'config', `filter.${driver}.smudge`, `sh -c 'touch ${marker}; sed s/alpha/omega/'`);
      git(h.project, 'config', `filter.${driver}.process`, `touch ${marker}`);
      git(h.project, 'config', `filter.${driver}.required`, 'true');
    }
    const r = initWorktree('filt');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(path.join(worktreeOf('filt'), 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(path.join(worktreeOf('filt'), '.gitattributes'), 'utf8')).toBe('* filter=evil\n');
  }, SLOW_MS);
});

describe('mori rm --remove-worktree', () => {
  it('refuses uncommitted changes and unmerged commits, removes with --force, keeps the branch', () => {
    expect(initWorktree('gone').code).toBe(0);
    const wt = worktreeOf('gone');
    writeFileSync(path.join(wt, 'new.txt'), 'work\n');
    const dirty = h.mori('rm', 'gone', '--yes', '--remove-worktree');
    expect(dirty.code).not.toBe(0);
    expect(dirty.stderr).toMatch(/uncommitted changes \(new\.txt\); nothing was removed/);
    expect(existsSync(path.join(wt, 'new.txt'))).toBe(true);

    git(wt, 'add', 'new.txt');
    git(wt, 'commit', '-q', '-m', 'work');
    const unmerged = h.mori('rm', 'gone', '--yes', '--remove-worktree');
    expect(unmerged.stderr).toMatch(/commits no other branch holds/);
    expect(existsSync(path.join(wt, '.mori', 'gone', 'session.json'))).toBe(true);
    expect(h.mori('ls').stdout).toContain('gone');

    const forced = h.mori('rm', 'gone', '--yes', '--remove-worktree', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`worktree removed: ${wt} (branch mori/gone kept)`);
    expect(existsSync(wt)).toBe(false);
    expect(git(h.project, 'worktree', 'list', '--porcelain').out).not.toContain(wt);
    expect(git(h.project, 'log', '-1', '--format=%s', 'mori/gone').out).toBe('work');
    expect(h.mori('ls').stdout).not.toContain('gone');
  }, SLOW_MS);

  it('removes a clean worktree whose commits another branch holds, and refuses one session.json moved elsewhere', () => {
    expect(initWorktree('clean').code).toBe(0);
    const wt = worktreeOf('clean');
    const r = h.mori('rm', 'clean', '--yes', '--remove-worktree', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, worktree: { path: wt, branch: 'mori/clean', removed: true } });
    expect(existsSync(wt)).toBe(false);

    // session.json is the agent's to write: a worktree path it names that is not the session's own is refused.
    expect(initWorktree('moved').code).toBe(0);
    const file = path.join(worktreeOf('moved'), '.mori', 'moved', 'session.json');
    const s = JSON.parse(readFileSync(file, 'utf8')) as { worktree: { path: string } };
    s.worktree.path = h.project;
    writeFileSync(file, JSON.stringify(s));
    const refused = h.mori('rm', 'moved', '--yes', '--remove-worktree', '--force');
    expect(refused.stderr).toMatch(/is not the session's own/);
    expect(existsSync(path.join(h.project, 'a.txt'))).toBe(true);
    expect(existsSync(worktreeOf('moved'))).toBe(true);
  }, SLOW_MS);
});

describe('session.remove with removeWorktree', () => {
  it('keeps the worktree unless asked, refuses a dirty one (nothing removed) unless forced, and says what it did', async () => {
    for (const name of ['keep', 'dirty']) expect(initWorktree(name).code).toBe(0);
    const dirty = worktreeOf('dirty');
    writeFileSync(path.join(dirty, 'new.txt'), 'work\n');
    const up = h.mori('up', '--daemon');
    expect(up.code, up.stderr).toBe(0);
    const { c } = await client(h.home);
    try {
      const kept = await call(c, 'session.remove', { session: 'keep' });
      expect(kept).toMatchObject({ name: 'keep', worktree: { path: worktreeOf('keep'), branch: 'mori/keep', removed: false } });
      expect(readFileSync(path.join(worktreeOf('keep'), 'a.txt'), 'utf8')).toBe('alpha\n');

      const forceAlone = await c.request('session.remove', { session: 'dirty', force: true });
      expect(forceAlone).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/force is only for removeWorktree/) });
      const refused = await c.request('session.remove', { session: 'dirty', removeWorktree: true });
      expect(refused).toMatchObject({ ok: false, code: 'conflict', message: expect.stringMatching(/uncommitted changes \(new\.txt\); nothing was removed/) });
      const listed = (await call(c, 'list', {})) as unknown as { name: string }[];
      expect(listed.map((s) => s.name)).toContain('dirty');
      expect(readFileSync(path.join(dirty, 'new.txt'), 'utf8')).toBe('work\n');

      const forced = await call(c, 'session.remove', { session: 'dirty', removeWorktree: true, force: true });
      expect(forced).toMatchObject({ name: 'dirty', worktree: { path: dirty, branch: 'mori/dirty', removed: true } });
      expect(existsSync(dirty)).toBe(false);
      expect(git(h.project, 'worktree', 'list', '--porcelain').out).not.toContain(dirty);
      expect(git(h.project, 'rev-parse', '--verify', '--quiet', 'refs/heads/mori/dirty').code).toBe(0);
      expect(existsSync(worktreeOf('keep'))).toBe(true);

      // A session without a worktree of its own has none to remove.
      const plain = await call(c, 'session.init', { projectDir: h.project, name: 'plain', profile: 'claude', backend: 'direct' });
      expect(plain).not.toHaveProperty('branch');
      const none = await c.request('session.remove', { session: 'plain', removeWorktree: true });
      expect(none).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/has no worktree of its own/) });

      // `mori rm --remove-worktree` with the daemon running asks it to remove the worktree too.
      expect(initWorktree('bycli').code).toBe(0);
      const { c: watcher, events } = await client(h.home, true);
      try {
        const r = h.mori('rm', 'bycli', '--yes', '--remove-worktree', '--json');
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, worktree: { path: worktreeOf('bycli'), removed: true } });
        expect(existsSync(worktreeOf('bycli'))).toBe(false);
        await until('the daemon to say it removed the session', () => events.some((e) => e.type === 'session.removed'));
      } finally {
        watcher.close();
      }
    } finally {
      c.close();
    }
  }, SLOW_MS);
});
