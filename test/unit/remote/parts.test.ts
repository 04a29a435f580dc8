// The parts of remotes that need no ssh: which references are remote, what the bridge answers itself
// (every approving request, nothing else), the words given to ssh, and remotes.json's rules (0600,
// names that keep `host:session` unambiguous, a corrupt file named and left as it is).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHere } from '../../../main/remote/bridge.js';
import { sshArgs } from '../../../main/remote/remote-client.js';
import { splitRemoteRef } from '../../../main/remote/remote-ref.js';
import { listTimeoutMs } from '../../../main/remote/remote-sessions.js';
import { readRemotes, Remote } from '../../../main/remote/remotes-store.js';
import { addRemote, removeRemote } from '../../../main/remote/remotes-update.js';
import { tempDir } from '../../../testkit/mori-cli.js';

const box = Remote.parse({ name: 'box', destination: 'me@box', sshOptions: ['-p', '2222'] });

describe('remote references', () => {
  it('are `host:session` for a known remote only', () => {
    expect(splitRemoteRef('box:work', [box])).toEqual({ remote: box, session: 'work' });
    expect(splitRemoteRef('box:a:b', [box])).toEqual({ remote: box, session: 'a:b' });
    expect(splitRemoteRef('other:work', [box])).toBeNull();
    expect(splitRemoteRef('box:', [box])).toBeNull();
    expect(splitRemoteRef(':work', [box])).toBeNull();
    expect(splitRemoteRef('work', [box])).toBeNull();
  });
});

describe('the bridge', () => {
  const line = (method: string, params: unknown = {}): string => JSON.stringify({ id: 7, method, params });

  it('answers every approving request forbidden itself', () => {
    for (const [method, params] of [
      ['checks.trust', { session: 's', hash: 'h' }],
      ['agent.trust', { session: 's', hash: 'h' }],
      ['settings.set', { settings: {} }],
      ['daemon.stop', {}],
      ['limit.resume-now', { session: 's' }],
      ['session.init', { projectDir: '/p', name: 'n', profile: 'shell', backend: 'direct', command: 'rm -rf ~' }],
      ['rollback', { session: 's', to: '1', confirm: true }],
    ] as const) {
      expect(answerHere(line(method, params)), method).toMatchObject({ kind: 'reply', id: 7, ok: false, code: 'forbidden' });
    }
  });

  it('relays everything else, including what it cannot read', () => {
    for (const l of [line('hello', { protocol: 1 }), line('list'), line('send', { session: 's', text: 'hi' }), line('input', { data: 'x' }), line('rollback', { session: 's', to: '1' }), line('session.init', { projectDir: '/p', name: 'n', profile: 'claude', backend: 'direct' }), 'not json', '[]', '{"method":3}']) {
      expect(answerHere(l), l).toBeNull();
    }
  });
});

describe('ssh', () => {
  it('puts the remote\'s options first, never prompts, shares one connection, and ends options before the destination', () => {
    const args = sshArgs(box, '/home/me/.mori');
    expect(args.slice(0, 2)).toEqual(['-p', '2222']);
    expect(args).toContain('BatchMode=yes');
    expect(args).toContain('ControlPath="/home/me/.mori/ssh/%C"');
    expect(sshArgs(box, '/Users/me/Library/Application Support/Mori')).toContain('ControlPath="/Users/me/Library/Application Support/Mori/ssh/%C"');
    expect(args.slice(-3)).toEqual(['--', 'me@box', 'mori bridge']);
  });

  it('lists within 2 s unless the environment says otherwise', () => {
    expect(listTimeoutMs({})).toBe(2_000);
    expect(listTimeoutMs({ MORI_REMOTE_LIST_TIMEOUT_MS: '9000' })).toBe(9_000);
    expect(listTimeoutMs({ MORI_REMOTE_LIST_TIMEOUT_MS: 'soon' })).toBe(2_000);
  });
});

describe('remotes.json', () => {
  it('is written 0600, refuses a duplicate, a bad name or a destination read as an option', async () => {
    const home = tempDir('remotes');
    expect((await addRemote(home, box)).ok).toBe(true);
    const file = path.join(home, 'remotes.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await addRemote(home, box)).toMatchObject({ ok: false, code: 'conflict' });
    expect(Remote.safeParse({ name: 'a:b', destination: 'h' }).success).toBe(false);
    expect(Remote.safeParse({ name: 'a', destination: '-oProxyCommand=x' }).success).toBe(false);
    expect(await removeRemote(home, 'nope')).toMatchObject({ ok: false, code: 'not-found' });
    expect((await removeRemote(home, 'box')).ok).toBe(true);
    expect(readRemotes(home)).toEqual({ ok: true, value: [] });
  });

  it('names a corrupt file and never writes over it', async () => {
    const home = tempDir('remotes-bad');
    const file = path.join(home, 'remotes.json');
    for (const text of ['{', '{"schemaVersion":2,"remotes":[]}', JSON.stringify({ schemaVersion: 1, remotes: [box, box] })]) {
      writeFileSync(file, text);
      const r = readRemotes(home);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain(file);
      expect(await addRemote(home, Remote.parse({ name: 'new', destination: 'h' }))).toMatchObject({ ok: false, code: 'unreadable' });
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });
});
