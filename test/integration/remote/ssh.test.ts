// Sessions on another host through OpenSSH, for real: an sshd on a loopback port with the test's own
// key and config, a second MORI_HOME as the remote (its daemon started by `mori bridge` when none
// answers), and the local `mori` reaching it as `host:session` — listed, its status read, text sent to
// its fake agent, attached over a pty. An unreachable remote and a hung one cost `mori ls` at most
// its 2 s deadline; an attachment whose ssh connection is killed comes back and lists what happened
// there meanwhile, and Ctrl-C ends its wait; `log`, `checks`, `verify`, `checkpoint`, `checkpoints`,
// `changes` and `rollback` work on box's files through its daemon; a remote of another protocol version is named with what to run there, one without
// Mori with how to give its command; an approval through the bridge is refused; a corrupt remotes.json
// is named and never overwritten.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MORI_BIN, moriIn, runMoriAsync, tempDir } from '../../../testkit/mori-cli.js';
import { client } from '../../support/daemon.js';
import { UpHarness } from '../../support/mori-up.js';
import { shq, SKIP_REASON, SKIP_WITHOUT_SSHD, SshServer, freePort } from '../../../testkit/sshd.js';
import { until } from '../../../testkit/until.js';

if (SKIP_WITHOUT_SSHD) console.warn(SKIP_REASON);

describe.skipIf(SKIP_WITHOUT_SSHD)('sessions on another host through ssh', () => {
  let sshd: SshServer;
  let remote: UpHarness;
  let local: string;
  /** The remote's `mori bridge`, with the remote harness's environment (fake agent, own tmux server). */
  let bridgeCommand: string;

  // A login over ssh takes seconds on a loaded runner: `mori ls` is given longer here, except where
  // its 2 s deadline is what is tested.
  const mori = (...args: string[]) => moriIn(local, args, { MORI_REMOTE_LIST_TIMEOUT_MS: '30000' });
  const record = (): string => {
    try {
      return readFileSync(remote.record, 'utf8');
    } catch {
      return '';
    }
  };

  beforeAll(async () => {
    sshd = new SshServer();
    await sshd.start();
    expect(sshd.port).toBeGreaterThan(0);
    remote = new UpHarness('remote');
    remote.init('work', 'direct');
    local = path.join(tempDir('local'), 'home');
    const env = { ...remote.env, MORI_HOME: remote.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    bridgeCommand = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v ?? ''}`)), shq(process.execPath), shq(MORI_BIN), 'bridge'].join(' ');
  }, 60_000);

  afterAll(() => {
    remote?.cleanup();
    // The connections ssh keeps shared (ControlPersist) end with the test, not minutes later.
    const shared = local ? path.join(local, 'ssh') : '';
    if (shared && existsSync(shared)) for (const f of readdirSync(shared)) spawnSync('ssh', ['-o', `ControlPath=${path.join(shared, f)}`, '-O', 'exit', 'shared'], { stdio: 'ignore', timeout: 10_000 });
    sshd?.stop();
  });

  it('adds the remote, lists host:session, reads its status and sends text that reaches the remote agent', { timeout: 90_000 }, async () => {
    const add = mori('remote', 'add', 'box', sshd.destination, ...sshd.optionFlags(), '--remote-command', bridgeCommand);
    expect(add.code, add.err).toBe(0);
    expect(statSync(path.join(local, 'remotes.json')).mode & 0o777).toBe(0o600);
    const ls = mori('remote', 'ls', '--json');
    expect(ls.json()).toMatchObject({ remotes: [{ name: 'box', destination: sshd.destination, remoteCommand: bridgeCommand }] });
    expect(mori('remote', 'add', 'box', 'other@host').code).toBe(2);

    // No daemon runs on the remote: the bridge starts one there, and its session comes up.
    await until('box:work to run', () => /^box:work {2}(running|waiting|working)\b/m.test(mori('ls').out), () => mori('ls').out + mori('ls').err, 60_000);
    const listed = mori('ls', '--json').json() as { remotes: { name: string; status: string; sessions: { name: string }[] }[] };
    expect(listed.remotes).toMatchObject([{ name: 'box', status: 'ok', sessions: [{ name: 'work' }] }]);

    const status = mori('status', 'box:work');
    expect(status.code, status.err).toBe(0);
    expect(status.out).toMatch(/^box:work {2}(running|waiting|working)\b/m);
    expect(status.out).toMatch(/state dir on box: .*\.mori\/work/);

    await until('the agent to wait for input', () => record().includes('"event":"start"'));
    const send = mori('send', 'box:work', 'print:over-ssh');
    expect(send.code, send.err).toBe(0);
    await until('the sent line to reach the remote agent', () => record().includes('"line":"print:over-ssh"'), record);
    expect(mori('send', 'box:nope', 'x').code).toBe(3);
  });

  it("logs, lists and runs checks (a command once trusted on box), checkpoints, shows and rolls back changes of box:work on box's own files", { timeout: 120_000 }, async () => {
    const log = mori('log', 'box:work', 'written', 'from', 'afar');
    expect(log.code, log.err).toBe(0);
    expect(remote.workLog('work')).toMatch(/written from afar/);

    writeFileSync(path.join(remote.stateDir('work'), 'environment.md'), `${readFileSync(path.join(remote.stateDir('work'), 'environment.md'), 'utf8')}\n## Checks\n- file: README.md\n- command: \`test -f README.md\`\n`);
    const checks = mori('checks', 'box:work');
    expect(checks.code, checks.err).toBe(0);
    expect(checks.out).toMatch(/^Checks of "box:work":$/m);
    expect(checks.out).toMatch(/^ {2}file {2}README\.md {2}environment\.md:\d+$/m);
    // box's project is a git repository: a checkpoint taken there, a file changed there, the change shown here.
    const git = (...a: string[]) => spawnSync('git', ['-C', remote.project, ...a], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    writeFileSync(path.join(remote.project, 'README.md'), 'one\n');
    expect(git('add', 'README.md').status).toBe(0);
    expect(git('commit', '-qm', 'start').status).toBe(0);
    const passing = mori('verify', 'box:work', '--json');
    expect(passing.code, passing.out + passing.err).toBe(0);
    type Verified = { ok: boolean; remote: string; results: { kind: string; status: string; target: string }[] };
    const statuses = (v: Verified): string[] => v.results.map((r) => `${r.kind} ${r.status}`).sort();
    const verified = passing.json() as Verified;
    expect([verified.ok, verified.remote, statuses(verified)]).toEqual([true, 'box', ['command untrusted', 'file pass']]);
    // Trust is approved on box by the person there (its own `mori trust`), and kept there: the command runs.
    const trust = remote.mori('trust', 'work', '--yes');
    expect(trust.code, trust.stderr).toBe(0);
    const trusted = mori('verify', 'box:work', '--json');
    expect(trusted.code, trusted.out + trusted.err).toBe(0);
    expect(statuses(trusted.json() as Verified)).toEqual(['command pass', 'file pass']);
    const cp = mori('checkpoint', 'box:work', '-m', 'before the change');
    expect(cp.code, cp.err).toBe(0);
    const taken = /^Checkpoint ([0-9a-f]{7}) \(#\d+\) on box: /.exec(cp.out)?.[1];
    expect(taken, cp.out).toBeDefined();
    writeFileSync(path.join(remote.project, 'README.md'), 'one\ntwo from box\n');
    const stat = mori('changes', 'box:work', '--since', 'last', '--stat');
    expect(stat.code, stat.err).toBe(0);
    expect(stat.out).toMatch(/1 file changed, \+1 -0\n {2}modified +\+1 -0 +README\.md/);
    const patch = mori('changes', 'box:work', '--since', 'last');
    expect(patch.out).toMatch(/^\+two from box$/m);
    const listed = mori('checkpoints', 'box:work', '--json');
    expect(listed.code, listed.err).toBe(0);
    expect((listed.json() as { checkpoints: { message?: string }[] }).checkpoints.map((c) => c.message)).toContain('before the change');
    // Rolled back on box, its agent stopped: the file as the checkpoint holds it, listed first; going
    // ahead while an agent works (--yes) is an approval, which box's bridge refuses.
    expect(mori('stop', 'box:work').code).toBe(0);
    try {
      const preview = mori('rollback', 'box:work', taken ?? '?', '--dry-run');
      expect(preview.code, preview.err).toBe(0);
      expect(preview.out).toMatch(/on box: 1 file would change:\n {2}restore +README\.md/);
      const back = mori('rollback', 'box:work', taken ?? '?');
      expect(back.code, back.err).toBe(0);
      expect(back.out).toMatch(/Undo: mori rollback box:work [0-9a-f]{7}/);
      expect(readFileSync(path.join(remote.project, 'README.md'), 'utf8')).toBe('one\n');
      const forced = mori('rollback', 'box:work', taken ?? '?', '--yes');
      expect(forced.code).not.toBe(0);
      expect(forced.err).toMatch(/approv/i);
    } finally {
      expect(mori('start', 'box:work').code).toBe(0);
      await until('box:work to run again', () => /^box:work {2}(running|waiting|working)\b/m.test(mori('ls').out), () => mori('ls').out, 60_000);
    }
    // A session box does not have is named as not found there.
    expect(mori('changes', 'box:nope', '--stat').code).toBe(3);
  });

  it('attaches over ssh: the remote screen shows and typing reaches the remote agent', { timeout: 90_000 }, async () => {
    const pty = spawnPty(process.execPath, [MORI_BIN, 'attach', 'box:work'], { cwd: local, env: { ...process.env, MORI_HOME: local } as Record<string, string>, cols: 100, rows: 30 });
    let screen = '';
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    try {
      await until('the remote snapshot', () => screen.includes('? for shortcuts'), () => screen);
      pty.write('print:typed-remotely\r');
      await until('the typed line to reach the remote agent', () => record().includes('"line":"print:typed-remotely"'), record);
      await until('its output to come back', () => /\r\n[^\n]*typed-remotely/.test(screen), () => JSON.stringify(screen.slice(-600)));
      pty.write('\x1d');
      expect(await exited).toBe(0);
      expect(screen).toMatch(/\[mori: detached\]/);
    } finally {
      pty.kill();
    }
  });

  /** The shared ssh connections (ControlPersist masters) to the remotes, killed: every session over them ends at once. */
  const killSshMasters = (): number => {
    let killed = 0;
    for (const f of readdirSync(path.join(local, 'ssh'))) {
      const check = spawnSync('ssh', ['-o', `ControlPath=${path.join(local, 'ssh', f)}`, '-O', 'check', 'shared'], { encoding: 'utf8', timeout: 10_000 });
      const pid = /pid=(\d+)/.exec(check.stderr)?.[1];
      if (!pid) continue;
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    }
    return killed;
  };

  it('comes back when ssh drops mid-attach, lists what happened there meanwhile, and Ctrl-C ends the wait', { timeout: 150_000 }, async () => {
    const pty = spawnPty(process.execPath, [MORI_BIN, 'attach', 'box:work'], { cwd: local, env: { ...process.env, MORI_HOME: local } as Record<string, string>, cols: 100, rows: 30 });
    let screen = '';
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    // The remote's daemon, reached directly: it causes the events the attachment misses.
    const { c: direct, events: published } = await client(remote.home, true);
    try {
      await until('the remote snapshot', () => screen.includes('? for shortcuts'), () => screen);
      // Unreachable from now on (logins hang), and the connection killed.
      sshd.pause();
      expect(killSshMasters()).toBeGreaterThan(0);
      await until('the lost connection to be told', () => /\[mori: box: the connection was lost/.test(screen), () => JSON.stringify(screen.slice(-600)));
      const entry = await direct.request('log.append', { session: 'work', text: 'written while box was away' });
      expect(entry.ok).toBe(true);
      const settings = await direct.request('settings.get', {});
      expect(settings.ok && (await direct.request('settings.set', { settings: settings.value })).ok).toBe(true);
      await until('the work-log event to be published', () => published.some((e) => e.type === 'log.appended'), () => JSON.stringify(published.map((e) => e.type)));
      const before = screen.length;
      sshd.resume();
      await until('the attachment to come back', () => /\[mori: box: back after \d+ s; meanwhile there:/.test(screen), () => JSON.stringify(screen.slice(-1500)), 60_000);
      const back = screen.slice(before);
      expect(back).toMatch(/ {2}\d\d:\d\d:\d\d work: work log grew/);
      expect(back).toMatch(/ {2}\d\d:\d\d:\d\d settings changed/);
      // Each missed event once.
      expect(back.match(/settings changed/g)).toHaveLength(1);
      await until('the screen repainted', () => screen.slice(before).includes('? for shortcuts'), () => JSON.stringify(screen.slice(-600)));
      pty.write('print:after-reconnect\r');
      await until('typing to reach the remote agent again', () => record().includes('"line":"print:after-reconnect"'), record);

      // Lost again, and the person gives up while it waits.
      sshd.pause();
      expect(killSshMasters()).toBeGreaterThan(0);
      const lost = screen.length;
      await until('the second loss to be told', () => /\[mori: box: the connection was lost/.test(screen.slice(lost)), () => JSON.stringify(screen.slice(-600)));
      pty.write('\x03');
      expect(await exited).toBe(0);
      expect(screen.slice(lost)).toMatch(/\[mori: stopped reconnecting to box\]/);
    } finally {
      sshd.resume();
      direct.close();
      pty.kill();
    }
  });

  it('refuses an approval through the bridge: it never reaches the remote daemon', { timeout: 60_000 }, async () => {
    const bridge = spawn(process.execPath, [MORI_BIN, 'bridge'], { env: { ...process.env, ...remote.env, MORI_HOME: remote.home }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    bridge.stdout.on('data', (d: Buffer) => (out += d.toString()));
    bridge.stdin.write('{"id":1,"method":"hello","params":{"protocol":1}}\n{"id":2,"method":"checks.trust","params":{"session":"work","hash":"abc"}}\n{"id":3,"method":"daemon.stop","params":{}}\n{"id":4,"method":"list","params":{}}\n');
    await until('four answers', () => out.trim().split('\n').length >= 4, () => out);
    bridge.stdin.end();
    const replies = out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; ok: boolean; code?: string; message?: string });
    expect(replies.find((r) => r.id === 2)).toMatchObject({ ok: false, code: 'forbidden', message: expect.stringMatching(/not done through `mori bridge`.*come from the person there/) });
    expect(replies.find((r) => r.id === 3)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(replies.find((r) => r.id === 4)).toMatchObject({ ok: true });
    // The daemon is still there: the stop never reached it.
    expect(mori('ls', '--json').json()).toMatchObject({ remotes: [{ name: 'box', status: 'ok' }] });
  });

  it('marks an unreachable remote and a hung one without holding `mori ls` past its 2 s deadline', { timeout: 90_000 }, async () => {
    // `mori ls` with the one reachable remote, under the same 2 s deadline: the cost of Node and a login.
    const baseStart = Date.now();
    expect((await runMoriAsync(['ls'], { home: local })).code).toBe(0);
    const baseline = Date.now() - baseStart;
    const closed = await freePort();
    expect(mori('remote', 'add', 'gone', sshd.destination, ...sshd.optionFlags(closed)).code).toBe(0);
    // Logged in, but nothing ever answers hello.
    expect(mori('remote', 'add', 'hung', sshd.destination, ...sshd.optionFlags(), '--remote-command', 'sleep 60').code).toBe(0);
    const start = Date.now();
    const r = await runMoriAsync(['ls'], { home: local });
    const took = Date.now() - start;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^gone: {2}unreachable/m);
    expect(r.stdout).toMatch(/Connection refused/);
    expect(r.stdout).toMatch(/^hung: {2}unreachable/m);
    expect(r.stdout).toMatch(/hung \(.*\): ssh ran, and `sleep 60` there said nothing; look on hung/);
    // The hung remote costs its 2 s deadline and no more (what else `ls` does overlaps it); the slack
    // is a loaded runner's noise in starting Node, far below the hung command's 60 s.
    expect(took, `ls took ${took} ms; with box alone ${baseline} ms`).toBeLessThan(baseline + 2_000 + 2_500);
    expect(mori('remote', 'rm', 'gone').code).toBe(0);
    expect(mori('remote', 'rm', 'hung').code).toBe(0);
    expect(mori('remote', 'rm', 'hung').code).toBe(3);
  });

  it('names a remote of another protocol version, with what to run there', { timeout: 60_000 }, async () => {
    const dir = tempDir('old-remote');
    const script = path.join(dir, 'old-mori.mjs');
    // A daemon of another version: answers hello with protocol 999 and refuses the rest, as dispatch does.
    writeFileSync(
      script,
      `import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (l) => {
  const m = JSON.parse(l);
  const v = m.method === 'hello' ? { kind: 'reply', id: m.id, ok: true, value: { protocol: 999, pid: 4242, home: '/old', startedAt: 1 } } : { kind: 'reply', id: m.id, ok: false, code: 'conflict', message: 'other version' };
  process.stdout.write(JSON.stringify(v) + '\\n');
});
`,
    );
    expect(mori('remote', 'add', 'old', sshd.destination, ...sshd.optionFlags(), '--remote-command', `${shq(process.execPath)} ${shq(script)}`).code).toBe(0);
    const ls = mori('ls');
    expect(ls.out).toMatch(/^old: {2}other protocol version \(999, this mori 1\)/m);
    expect(ls.out).toMatch(/update Mori here to the same version, then run `mori down && mori up --daemon` on old/);
    const send = mori('send', 'old:work', 'hi');
    expect(send.code).toBe(1);
    expect(send.err).toMatch(/old: its Mori supervisor \(pid 4242\) speaks protocol 999, this mori speaks 1/);
    expect(mori('remote', 'rm', 'old').code).toBe(0);
  });

  it('says so when the remote command is not found there, and how to give it', { timeout: 60_000 }, () => {
    expect(mori('remote', 'add', 'bare', sshd.destination, ...sshd.optionFlags(), '--remote-command', 'no-such-mori-here bridge').code).toBe(0);
    const send = mori('send', 'bare:work', 'hi');
    expect(send.code).toBe(1);
    expect(send.err).toMatch(/bare: `no-such-mori-here bridge` was not found there.*--remote-command/);
    expect(mori('remote', 'rm', 'bare').code).toBe(0);
  });

  it('names a corrupt remotes.json, keeps listing local sessions, and never overwrites it', { timeout: 60_000 }, () => {
    const file = path.join(local, 'remotes.json');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, '{"schemaVersion":1,"remotes":[{"name":"x y","destination":"h"}]}');
    const corrupt = readFileSync(file, 'utf8');
    const ls = mori('remote', 'ls');
    expect(ls.code).toBe(3);
    expect(ls.err).toContain(file);
    expect(ls.err).toMatch(/remotes\.0\.name: a remote name is/);
    expect(mori('remote', 'add', 'new', 'h').code).toBe(3);
    expect(mori('remote', 'rm', 'x y').code).toBe(3);
    const all = mori('ls');
    expect(all.code).toBe(3);
    expect(all.out).toMatch(/No sessions yet/);
    expect(all.err).toContain(`${file}:`);
    expect(mori('send', 'box:work', 'x').err).toContain(file);
    writeFileSync(file, 'not json');
    expect(mori('remote', 'ls').err).toMatch(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('not json');
    expect(corrupt).not.toBe(before);
    writeFileSync(file, before);
  });
});
