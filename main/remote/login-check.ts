// One ssh login to a remote, as `mori remote add` tries it (DESIGN.md §12, sessions on other hosts):
// ssh with the remote's options and Mori's (BatchMode, the login bound), running `true` instead of
// the bridge, so trying a login starts nothing there. Says whether it worked and, if not, ssh's
// reason in the words every remote command uses. Runs in the CLI process.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fail, ok, type Result } from '../../common/result.js';
import { controlDir, LOGIN_TIMED_OUT, loginUnfinished, sshArgs } from './remote-client.js';
import { loginTimeoutSeconds } from './login-bound.js';
import type { Remote } from './remotes-store.js';

/** Past ssh's own ConnectTimeout, how long authentication may take before the try is given up (an agent asked for a key, a slow PAM). */
const AUTH_SLACK_MS = 10_000;

export function tryLogin(remote: Remote, home: string): Promise<Result<void>> {
  mkdirSync(controlDir(home), { recursive: true, mode: 0o700 });
  // The remote's command is the last word: a login that runs `true` there tests the login only.
  const args = [...sshArgs(remote, home).slice(0, -1), 'true'];
  return new Promise((resolve) => {
    const child = spawn('ssh', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGTERM'), loginTimeoutSeconds() * 1000 + AUTH_SLACK_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve(fail('failed', `${remote.name}: cannot run ssh (${err.message})`));
    });
    // 'exit', not 'close': a shared connection ssh leaves behind (ControlPersist) keeps stderr open.
    child.once('exit', (code) => {
      clearTimeout(timer);
      const said = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' / ');
      if (code === 0) return resolve(ok(undefined));
      if (LOGIN_TIMED_OUT.test(said) || code === null) return resolve(fail('disconnected', loginUnfinished(remote, said)));
      resolve(fail('disconnected', `${remote.name} (${remote.destination}): the ssh login failed${said ? ` (ssh: ${said})` : ''}`));
    });
  });
}
