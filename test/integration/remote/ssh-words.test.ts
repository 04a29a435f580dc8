// What the CLI says about remote hosts, through OpenSSH for real: a host that accepts TCP and never
// speaks ssh (a plain listener) costs `mori status box:S` the 2 s login bound `mori ls` uses and is
// said as an ssh login that did not finish, never as the supervisor's fault with advice to restart
// the local one; `mori remote add` tries the login once and says whether it worked (the sshd harness
// for the working case); `stop box:S` names its host; a removed remote is named as no such remote;
// `mori trust box:S` says approvals are given on box.
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MORI_BIN, moriIn, runMoriAsync, tempDir } from '../../../testkit/mori-cli.js';
import { UpHarness } from '../../support/mori-up.js';
import { shq, SKIP_WITHOUT_SSHD, SshServer } from '../../../testkit/sshd.js';
import { until } from '../../../testkit/until.js';

describe.skipIf(SKIP_WITHOUT_SSHD)('the CLI’s words about remote hosts', () => {
  let sshd: SshServer;
  let remote: UpHarness;
  let local: string;
  let silent: Server;
  const held: Socket[] = [];
  let bridgeCommand: string;
  // A login over ssh takes seconds on a loaded runner: the working host is given longer.
  const mori = (...args: string[]) => moriIn(local, args, { MORI_REMOTE_LIST_TIMEOUT_MS: '30000' });

  beforeAll(async () => {
    // Accepts every connection and never writes a byte: ssh waits for a banner that does not come.
    silent = createServer((s) => held.push(s));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    sshd = new SshServer();
    await sshd.start();
    remote = new UpHarness('remote-words');
    remote.init('work', 'direct');
    local = path.join(tempDir('local-words'), 'home');
    mkdirSync(local, { recursive: true });
    const env = { ...remote.env, MORI_HOME: remote.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    bridgeCommand = ['env', ...Object.entries(env).map(([k, v]) => shq(`${k}=${v ?? ''}`)), shq(process.execPath), shq(MORI_BIN), 'bridge'].join(' ');
  }, 60_000);

  afterAll(() => {
    for (const s of held) s.destroy();
    silent?.close();
    remote?.cleanup();
    sshd?.stop();
  });

  it('a host that never speaks ssh: the login did not finish, said within the 2 s bound, the host named, no local advice', { timeout: 60_000 }, async () => {
    const port = (silent.address() as { port: number }).port;
    const add = await runMoriAsync(['remote', 'add', 'mute', '127.0.0.1', '--ssh-option', '-F /dev/null', '--ssh-option', `-p ${port}`], { home: local });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/mute \(127\.0\.0\.1\): the ssh login did not finish within 2 s/);
    const start = Date.now();
    const status = await runMoriAsync(['status', 'mute:work'], { home: local });
    const took = Date.now() - start;
    expect(status.code).not.toBe(0);
    expect(status.stderr).toMatch(/mute \(127\.0\.0\.1\): the ssh login did not finish within 2 s/);
    expect(status.stderr).not.toMatch(/supervisor/);
    expect(status.stderr).not.toMatch(/mori up --daemon/);
    // The bound and the cost of starting Node on a loaded runner; far below a request's 30 s.
    expect(took).toBeLessThan(2_000 + 6_000);
    expect(mori('remote', 'rm', 'mute').code).toBe(0);
  });

  it('a working host: the login is said to work, stop names the host, trust points at the host, and a removed remote is no such remote', { timeout: 120_000 }, async () => {
    const add = mori('remote', 'add', 'box', sshd.destination, ...sshd.optionFlags(), '--remote-command', bridgeCommand);
    expect(add.code, add.err).toBe(0);
    expect(add.out).toContain(`the ssh login to ${sshd.destination} worked`);
    await until('box:work to run', () => /^box:work {2}(running|waiting|working)\b/m.test(mori('ls').out), () => mori('ls').out + mori('ls').err, 60_000);

    const stop = mori('stop', 'box:work');
    expect(stop.code, stop.err).toBe(0);
    expect(stop.out).toMatch(/^box:work: .* on box$/m);

    const trust = mori('trust', 'box:work', '--yes');
    expect(trust.code).toBe(2);
    expect(trust.err).toMatch(/approvals for box:work are given on box: run `mori trust work` there/);

    expect(mori('remote', 'rm', 'box').code).toBe(0);
    const gone = mori('status', 'box:work');
    expect(gone.code).not.toBe(0);
    expect(gone.err).toMatch(/there is no remote named "box" \(there are none; `mori remote add box user@host` adds it\)/);
  });
});
