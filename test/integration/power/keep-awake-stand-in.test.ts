// Keeping the machine awake under a real `mori up` with the fake agent, against a stand-in
// `systemd-inhibit` first on PATH (these machines have no logind, so the real one cannot hold
// anything): a program that records its arguments and then runs the command it was given, as the
// real one does, and lives as long as that command. With the setting on, the daemon starts it once
// while the agent works and `mori ls` says so; it ends when the work ends (no grace period here);
// it ends within seconds of a daemon killed outright (no orphan); with the setting off nothing runs.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEvent, until, UpHarness } from '../../support/mori-up.js';

let h: UpHarness;
afterEach(() => h.cleanup());

/** The stand-in's record: one line per start, its pid and its arguments. */
function starts(record: string): { pid: number; args: string }[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ pid: Number(l.split(' ')[0]), args: l.slice(l.indexOf(' ') + 1) }));
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A harness whose PATH starts with the stand-in, and settings.json with keepAwake as given. */
function harness(prefix: string, enabled: boolean): { record: string } {
  h = new UpHarness(prefix);
  const bin = path.join(h.tmp, 'bin');
  mkdirSync(bin);
  const record = path.join(h.tmp, 'inhibit.log');
  // Options first (--what=…), then the command it holds the lock for, exec'd: the same pid lives as long as it.
  writeFileSync(path.join(bin, 'systemd-inhibit'), `#!/bin/sh\necho "$$ $*" >> "${record}"\nwhile [ $# -gt 0 ]; do case "$1" in --*) shift;; *) break;; esac; done\nexec "$@"\n`);
  chmodSync(path.join(bin, 'systemd-inhibit'), 0o755);
  h.env['PATH'] = `${bin}:${process.env['PATH'] ?? ''}`;
  mkdirSync(h.home, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(h.home, 'settings.json'), JSON.stringify({ keepAwake: { enabled, graceMinutes: 0 } }));
  h.init('w', 'direct');
  return { record };
}

describe.skipIf(process.platform !== 'linux')('keeping the machine awake (a stand-in systemd-inhibit on PATH)', () => {
  it('holds idle sleep while the agent works, says so in mori ls, lets go when it stops, and leaves nothing behind a killed daemon', async () => {
    const { record } = harness('keep-awake', true);
    const u = h.up();
    await until('waiting', () => hasEvent(u, 'session.activity', { to: 'waiting' }), () => u.stderr());
    // Starting the agent was work: a hold may have come and gone; count from here.
    await until('no hold while it waits', () => starts(record).every((s) => !alive(s.pid)), () => readFileSync(record, 'utf8'));
    const before = starts(record).length;
    expect(h.mori('send', 'w', 'work:6000').code).toBe(0);
    await until('the hold', () => starts(record).length === before + 1, () => u.stderr());
    const hold = starts(record)[before] as { pid: number; args: string };
    expect(hold.args).toMatch(/^--what=idle:sleep --who=Mori --why=.+ --mode=block tail --pid=\d+ -f \/dev\/null$/);
    expect(alive(hold.pid)).toBe(true);
    expect(h.mori('ls').stdout).toContain('(keeping the machine awake (1 working))');
    await until('the hold let go once the work ended', () => !alive(hold.pid), () => u.stderr(), 20_000);
    expect(starts(record)).toHaveLength(before + 1);
    expect(h.mori('ls').stdout).not.toContain('keeping the machine awake');

    // Held again, then the daemon killed outright: the hold ends with it.
    expect(h.mori('send', 'w', 'work:60000').code).toBe(0);
    await until('the second hold', () => starts(record).length === before + 2, () => u.stderr());
    const second = starts(record)[before + 1] as { pid: number };
    u.child.kill('SIGKILL');
    await u.exited;
    await until('no hold left behind the killed daemon', () => !alive(second.pid), () => '', 10_000);
  }, 90_000);

  it('holds nothing while the setting is off', async () => {
    const { record } = harness('keep-awake-off', false);
    const u = h.up();
    await until('waiting', () => hasEvent(u, 'session.activity', { to: 'waiting' }), () => u.stderr());
    expect(h.mori('send', 'w', 'work:2000').code).toBe(0);
    await until('working', () => hasEvent(u, 'session.activity', { to: 'working' }), () => u.stderr());
    await until('waiting again', () => u.lines().filter((l) => l['type'] === 'session.activity' && l['to'] === 'waiting').length >= 2, () => u.stderr());
    expect(starts(record)).toEqual([]);
  }, 60_000);
});
