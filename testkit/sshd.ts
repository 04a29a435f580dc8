// Test harness for remotes: a real OpenSSH server on a loopback port, run by the test with its own
// config, host key and authorized key in a temp dir, logging in as the current user. The client side
// is the system's `ssh` with the test's key and known-hosts file passed as `mori remote add
// --ssh-option`s, so nothing of the person's own ~/.ssh is read or written.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from './mori-cli.js';
import { until } from './until.js';

export const SSHD = '/usr/sbin/sshd';
/** Remotes need sshd; outside CI a machine without it skips them, in CI they must run. */
export const SKIP_WITHOUT_SSHD = !existsSync(SSHD) && !process.env['CI'];
export const SKIP_REASON = `${SSHD} is not installed (apt-get install openssh-server openssh-client): the remote tests are skipped`;

/** A port nothing listens on at the moment of asking (the kernel's pick, closed again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** A word for a POSIX shell, single-quoted. */
export const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export class SshServer {
  readonly dir: string;
  readonly user = os.userInfo().username;
  port = 0;
  private child: ChildProcess | null = null;
  private log = '';

  constructor() {
    this.dir = tempDir('sshd');
  }

  /** Keys, config, then sshd in the foreground (-D) logging to stderr (-e); resolves once a login works. */
  async start(): Promise<void> {
    const d = this.dir;
    const keygen = (file: string): void => {
      const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'mori-test', '-f', file], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
    };
    mkdirSync(path.join(d, 'home'));
    keygen(path.join(d, 'host_key'));
    keygen(path.join(d, 'id'));
    writeFileSync(path.join(d, 'authorized_keys'), readFileSync(path.join(d, 'id.pub')));
    this.port = await freePort();
    writeFileSync(path.join(d, 'known_hosts'), `[127.0.0.1]:${this.port} ${readFileSync(path.join(d, 'host_key.pub'), 'utf8')}`);
    writeFileSync(
      path.join(d, 'sshd_config'),
      [
        `Port ${this.port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(d, 'host_key')}`,
        `PidFile ${path.join(d, 'sshd.pid')}`,
        `AuthorizedKeysFile ${path.join(d, 'authorized_keys')}`,
        // Not root's sshd: no PAM, and the temp dir's modes are not the home's.
        'UsePAM no',
        'StrictModes no',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        `AllowUsers ${this.user}`,
        'LogLevel ERROR',
        // The login's HOME is the test's own empty dir: the shell sshd starts reads no ~/.bashrc or
        // ~/.profile of this machine's user (one that waits on a stale lock hung every login here).
        `SetEnv HOME=${path.join(d, 'home')}`,
        '',
      ].join('\n'),
    );
    // Run as root (CI's container), sshd insists on its privilege-separation directory, which the
    // package's service start would create: created here the same way (empty, 0755).
    if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    this.child = spawn(SSHD, ['-D', '-e', '-f', path.join(d, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr?.on('data', (b: Buffer) => (this.log += b.toString()));
    // A login takes seconds on a loaded runner: each try gets 20 s, all of them 90 s.
    await until('sshd to accept a login', () => spawnSync('ssh', [...this.options(), '-o', 'BatchMode=yes', `${this.user}@127.0.0.1`, 'true'], { timeout: 20_000 }).status === 0, () => this.log, 90_000, 200);
  }

  /** The client's options: this server's port, the test's key, its known hosts, and nothing of ~/.ssh. */
  options(port = this.port): string[] {
    return ['-F', '/dev/null', '-p', String(port), '-i', path.join(this.dir, 'id'), '-o', 'IdentitiesOnly=yes', '-o', `UserKnownHostsFile=${path.join(this.dir, 'known_hosts')}`];
  }

  /** The same as `mori remote add --ssh-option`s: one option and its argument a flag. */
  optionFlags(port = this.port): string[] {
    const o = this.options(port);
    const flags: string[] = [];
    for (let i = 0; i < o.length; i += 2) flags.push('--ssh-option', `${o[i]} ${o[i + 1]}`);
    return flags;
  }

  get destination(): string {
    return `${this.user}@127.0.0.1`;
  }

  get stderr(): string {
    return this.log;
  }

  /** Stops accepting logins (the listener frozen, SIGSTOP): logins in progress hang as on an unreachable host. Sessions already open go on. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  stop(): void {
    this.resume();
    if (this.child && this.child.exitCode === null) this.child.kill('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
