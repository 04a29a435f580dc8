// `mori rm` and `mori rename` against a real `mori up` (real tmux, real ptys, real files): a removed
// session's agent is stopped (its process and its tmux session gone), it leaves the registry and
// `mori ls`, its state dir is kept unless --delete-state (and a symlink in it never takes the person's
// file with it); a rename keeps the id, moves the state dir, and the next start runs under the new
// name and dir; a running session, a name in use, an invalid name (`../x`, a leading `-`) and a
// `.mori/<name>` that is a symlink are refused with the files left as they were. With no supervisor
// running both act on the files themselves (no daemon is started), and `rm` ends a tmux agent that
// outlived its supervisor.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonAnswering } from '../../../../main/daemon-client/daemon-process.js';
import { hasEvent, until, UpHarness, type Up } from '../../../support/mori-up.js';

let h: UpHarness;
beforeEach(() => {
  h = new UpHarness('rm-rename');
});
afterEach(() => h.cleanup());

/** Each `mori` command is a Node process on two shared cores: a dozen of them take tens of seconds. */
const SLOW_MS = 150_000;
const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const registry = (): string => readFileSync(path.join(h.home, 'registry.json'), 'utf8');
const idOf = (name: string): string => (JSON.parse(readFileSync(path.join(h.stateDir(name), 'session.json'), 'utf8')) as { id: string }).id;
const listed = (): (string | undefined)[] => (JSON.parse(h.mori('ls', '--json').stdout) as { sessions: { session: { name: string } | null }[] }).sessions.map((s) => s.session?.name);

async function running(up: Up, name: string): Promise<number> {
  await until(`${name} to wait`, () => hasEvent(up, 'session.activity', { name, to: 'waiting' }), () => up.stderr());
  const start = h.starts().at(-1);
  if (!start) throw new Error('no agent start recorded');
  return start.pid;
}

describe('mori rm', () => {
  it.runIf(hasTmux)('stops the agent, ends its tmux session, unregisters it and keeps its state dir', async () => {
    h.init('keep', 'tmux');
    h.init('other', 'tmux');
    const id = idOf('keep');
    const up = h.up(['keep']);
    const pid = await running(up, 'keep');

    // Not in a terminal and without --yes, nothing is removed.
    const asked = h.mori('rm', 'keep');
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/pass --yes/);
    expect(alive(pid)).toBe(true);

    const r = h.mori('rm', 'keep', '--yes', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, id, name: 'keep', stateDeleted: false });
    await until('the agent to be gone', () => !alive(pid));
    expect(spawnSync('tmux', ['-L', h.socketName, 'has-session', '-t', `=mori-${id}`]).status).not.toBe(0);
    expect(registry()).not.toContain(id);
    expect(listed()).toEqual(['other']);
    expect(existsSync(path.join(h.stateDir('keep'), 'session_state.md'))).toBe(true);
    expect(h.workLog('keep')).toMatch(/SESSION STOPPED - by the user[\s\S]*SESSION REMOVED - unregistered by the person/);
    await until('the removal event', () => hasEvent(up, 'session.removed', { sessionId: id, stateDeleted: false }));
    // Gone from the supervisor too: it is not found any more.
    expect(h.mori('start', 'keep').code).toBe(3);
    // A name that never was a session is reported as such.
    expect(h.mori('rm', 'nosuch', '--yes').code).toBe(3);
  }, SLOW_MS);

  it('with --delete-state deletes the state dir, and a symlink inside it does not take its target along', async () => {
    h.init('gone', 'direct');
    const precious = path.join(h.tmp, 'precious.txt');
    writeFileSync(precious, 'the person\'s file\n');
    symlinkSync(precious, path.join(h.stateDir('gone'), 'link-to-precious'));
    symlinkSync(h.tmp, path.join(h.stateDir('gone'), 'link-to-dir'));
    const up = h.up(['gone']);
    const pid = await running(up, 'gone');
    const r = h.mori('rm', 'gone', '--yes', '--delete-state', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stateDeleted: true });
    await until('the agent to be gone', () => !alive(pid));
    expect(existsSync(h.stateDir('gone'))).toBe(false);
    expect(readFileSync(precious, 'utf8')).toBe('the person\'s file\n');
    expect(existsSync(h.project)).toBe(true);
    expect(listed()).toEqual([]);
    expect(up.lines().filter((e) => e['type'] === 'session.attention')).toEqual([]);
    expect(existsSync(h.stateDir('gone'))).toBe(false);
  }, SLOW_MS);

  it('refuses to delete a state dir that is a symlink, and unregisters nothing then', async () => {
    h.init('real', 'direct');
    const up = h.up([]);
    await until('the supervisor', () => hasEvent(up, 'supervisor.ready'), () => up.stderr());
    // The registry names a state dir the agent swapped for a symlink to elsewhere.
    const elsewhere = path.join(h.tmp, 'elsewhere');
    spawnSync('mv', [h.stateDir('real'), elsewhere]);
    symlinkSync(elsewhere, h.stateDir('real'));
    const r = h.mori('rm', 'real', '--yes', '--delete-state');
    expect(r.code, r.stdout).not.toBe(0);
    expect(r.stderr).toMatch(/symbolic link|a symlink/);
    expect(existsSync(path.join(elsewhere, 'session.json'))).toBe(true);
    expect(registry()).toContain('"real"');
  }, SLOW_MS);
});

describe('mori rename', () => {
  it('keeps the id, moves the state dir, and the next start runs under the new name', async () => {
    h.init('old', 'direct');
    h.init('taken', 'direct');
    const id = idOf('old');
    const up = h.up(['old']);
    await running(up, 'old');

    const busy = h.mori('rename', 'old', 'new');
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/stop it first/);
    expect(h.mori('stop', 'old').code).toBe(0);
    await until('the stop', () => hasEvent(up, 'session.stopped', { name: 'old' }));

    // Refused names leave everything as it was.
    for (const [bad, why] of [
      ['../escape', /not a valid session name/],
      ['-rf', /not a valid session name|unknown option/],
      ['Upper', /not a valid session name/],
      // A state dir macOS would open as an app or package instead of showing a folder.
      ['tool.prefpane', /not a valid session name: it may not end in "\.prefpane"/],
      ['taken', /already exists/],
    ] as const) {
      const r = h.mori('rename', 'old', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(why);
    }
    // A dangling symlink where the new state dir would go is a name in use, not something to follow.
    symlinkSync(path.join(h.tmp, 'nowhere'), h.stateDir('linked'));
    expect(h.mori('rename', 'old', 'linked').stderr).toMatch(/already exists/);
    expect(existsSync(path.join(h.tmp, 'nowhere'))).toBe(false);
    expect(existsSync(path.join(h.stateDir('old'), 'session.json'))).toBe(true);

    const r = h.mori('rename', 'old', 'new', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, session: { id, name: 'new' } });
    expect(existsSync(h.stateDir('old'))).toBe(false);
    expect(idOf('new')).toBe(id);
    expect(JSON.parse(readFileSync(path.join(h.stateDir('new'), 'session.json'), 'utf8'))).toMatchObject({ name: 'new' });
    expect(registry()).toContain(h.stateDir('new'));
    expect(registry()).not.toContain(h.stateDir('old'));
    expect(h.workLog('new')).toMatch(/SESSION RENAMED - from "old" to "new"/);
    await until('the rename event', () => hasEvent(up, 'session.renamed', { sessionId: id, name: 'new', from: 'old' }));
    expect(listed().sort()).toEqual(['new', 'taken']);

    const before = h.starts().length;
    expect(h.mori('start', 'new').code).toBe(0);
    await until('the new start', () => h.starts().length > before && hasEvent(up, 'session.started', { name: 'new' }), () => up.stderr());
    const start = h.starts().at(-1) as unknown as { env: Record<string, string> };
    expect(start.env['MORI_STATE_DIR']).toBe(h.stateDir('new'));
    // Nothing wrote into the old dir after the move (the stop's checkpoint was waited for).
    expect(up.lines().filter((e) => e['type'] === 'session.attention')).toEqual([]);
    expect(existsSync(h.stateDir('old'))).toBe(false);
  }, SLOW_MS);
});

describe('mori rm and mori rename with no supervisor running', () => {
  it('act on the files themselves, start no daemon, and end a tmux agent that outlived its supervisor', async () => {
    h.init('solo', 'direct');
    const id = idOf('solo');
    const renamed = h.mori('rename', 'solo', 'renamed', '--json');
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(idOf('renamed')).toBe(id);
    expect(existsSync(path.join(h.home, 'mori.sock'))).toBe(false);
    expect(existsSync(path.join(h.stateDir('renamed'), 'session.lock'))).toBe(false);
    const removed = h.mori('rm', 'renamed', '--yes', '--delete-state', '--json');
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(h.stateDir('renamed'))).toBe(false);
    expect(registry()).not.toContain(id);
    expect(existsSync(path.join(h.home, 'mori.sock'))).toBe(false);

    if (!hasTmux) return;
    h.init('survivor', 'tmux');
    const tid = idOf('survivor');
    const up = h.up(['survivor']);
    const pid = await running(up, 'survivor');
    up.child.kill('SIGKILL');
    await up.exited;
    expect(alive(pid)).toBe(true);
    const refused = h.mori('rename', 'survivor', 'other');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/still runs its agent in tmux/);
    expect(existsSync(path.join(h.stateDir('survivor'), 'session.json'))).toBe(true);
    const r = h.mori('rm', 'survivor', '--yes');
    expect(r.code, r.stderr).toBe(0);
    await until('the tmux agent to be gone', () => !alive(pid));
    expect(spawnSync('tmux', ['-L', h.socketName, 'has-session', '-t', `=mori-${tid}`]).status).not.toBe(0);
    expect(existsSync(path.join(h.stateDir('survivor'), 'session.json'))).toBe(true);
    // The killed supervisor's socket file is left behind; nothing answers on it.
    expect(await daemonAnswering(h.home)).toBeNull();
  }, SLOW_MS);
});
