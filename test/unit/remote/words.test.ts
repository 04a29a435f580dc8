// The words the CLI says about remote hosts, without ssh: a login that did not finish names the host
// and ssh's reason and never the supervisor, with the bound given to ssh as ConnectTimeout (rounded up
// to whole seconds), and ssh's words never cut mid-line; a `host:` that is no remote says which there are; a remote session's answer
// names its host.
import { describe, expect, it } from 'vitest';
import { infoText } from '../../../main/cli/commands/control.js';
import { noSuchRemote } from '../../../main/cli/remote-target.js';
import { loginTimeoutSeconds } from '../../../main/remote/login-bound.js';
import { LOGIN_TIMED_OUT, loginUnfinished, saidLines, sshArgs } from '../../../main/remote/remote-client.js';
import { Remote } from '../../../main/remote/remotes-store.js';

const box = Remote.parse({ name: 'box', destination: 'me@box' });

describe('words about remote hosts', () => {
  it('a login that did not finish: the host, the bound, what ssh said, nothing about a supervisor', () => {
    const said = 'Connection timed out during banner exchange / Connection to 10.0.0.2 port 22 timed out';
    expect(LOGIN_TIMED_OUT.test(said)).toBe(true);
    expect(LOGIN_TIMED_OUT.test('Permission denied (publickey).')).toBe(false);
    const words = loginUnfinished(box, said);
    expect(words).toBe(`box (me@box): the ssh login did not finish within 2 s (ssh: ${said}); check that me@box answers ssh on that port (\`ssh me@box\`)`);
    expect(words).not.toMatch(/supervisor|mori up/);
  });

  it('says ssh’s last whole lines, never one cut where its exit was seen', () => {
    const err = 'Connection timed out during banner exchange\r\nConnection to 10.0.0.2 port 22 timed out\r\n';
    expect(saidLines(err)).toBe('Connection timed out during banner exchange / Connection to 10.0.0.2 port 22 timed out');
    expect(saidLines('Connection timed out during banner exchange\r\nConn')).toBe('Connection timed out during banner exchange');
    expect(saidLines('a\nb\nc\nd\n')).toBe('b / c / d');
    // A single line still being written is all there is: shown as it came.
    expect(saidLines('ssh: connect to host')).toBe('ssh: connect to host');
    expect(saidLines('')).toBe('');
  });

  it('gives ssh the bound as its ConnectTimeout, in whole seconds, after the remote’s own options', () => {
    expect(loginTimeoutSeconds({})).toBe(2);
    expect(loginTimeoutSeconds({ MORI_REMOTE_LIST_TIMEOUT_MS: '2500' })).toBe(3);
    expect(loginTimeoutSeconds({ MORI_REMOTE_LIST_TIMEOUT_MS: '1' })).toBe(1);
    const args = sshArgs(Remote.parse({ name: 'box', destination: 'me@box', sshOptions: ['-o', 'ConnectTimeout=9'] }), '/h', 2);
    // ssh keeps the first value of an option: the person's own wins.
    expect(args.indexOf('ConnectTimeout=9')).toBeLessThan(args.indexOf('ConnectTimeout=2'));
  });

  it('a `host:` that is no remote says which remotes there are and how to add it', () => {
    expect(noSuchRemote('box', [])).toBe('there is no remote named "box" (there are none; `mori remote add box user@host` adds it)');
    expect(noSuchRemote('bx', [box])).toBe('there is no remote named "bx" (there are box; `mori remote add bx user@host` adds it)');
  });

  it('a remote session’s answer names its host', () => {
    const info = { id: 'i', name: 'work', stateDir: '/p/.mori/work', state: 'running', activity: 'waiting', backend: 'direct', pid: 7, intent: { kind: 'running' }, nextAttemptAt: null };
    const local = infoText(info);
    if (local === '') return expect.fail('the answer did not parse: the test’s session is out of date');
    expect(local.startsWith('work: ')).toBe(true);
    expect(infoText(info, 'box')).toMatch(/^box:work: .* on box$/);
  });
});
