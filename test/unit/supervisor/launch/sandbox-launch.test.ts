// A sandboxed launch's command line: bubblewrap on Linux and Seatbelt on macOS (the platform
// injected: sandbox-exec cannot run here), the agent's own line without a sandbox, and the hosts an
// `allowlist` session's proxy passes: its agent's APIs, the base URLs the person set, the settings'.
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeProfile } from '../../../../main/agents/claude/profile.js';
import { shellProfile } from '../../../../main/agents/shell/profile.js';
import { sandboxedCommand, sandboxReady, type SandboxedLaunch } from '../../../../main/supervisor/launch/sandbox-launch.js';
import { allowlistHosts, SessionNetProxies } from '../../../../main/supervisor/launch/sandbox-network.js';

const root = path.join(os.tmpdir(), `mori-sbx-launch-${process.pid}`);
const project = path.join(root, 'proj');
mkdirSync(path.join(project, '.mori', 's'), { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const base = (over: Partial<SandboxedLaunch> = {}): SandboxedLaunch => ({
  sessionId: '00000000-0000-4000-8000-000000000001',
  session: { on: true, network: 'none', home: 'read-only' },
  settings: { readWrite: [], readOnly: [] },
  profile: shellProfile,
  workDir: project,
  stateDir: path.join(project, '.mori', 's'),
  moriHome: path.join(root, 'home'),
  hooks: null,
  env: { HOME: root },
  bwrap: 'bwrap',
  command: 'sh',
  args: ['-c', 'echo hi'],
  proxies: new SessionNetProxies(path.join(root, 'home')),
  ...over,
});

describe('the sandboxed command line', () => {
  it('is the agent\'s own without a sandbox', async () => {
    const r = await sandboxedCommand(base({ session: undefined }));
    expect(r).toEqual({ ok: true, value: { command: 'sh', args: ['-c', 'echo hi'], env: {} } });
  });

  it('is bwrap on Linux and sandbox-exec with a generated profile on macOS', async () => {
    const linux = await sandboxedCommand(base({ platform: 'linux' }));
    if (!linux.ok) throw new Error(linux.message);
    expect(linux.value.command).toBe('bwrap');
    expect(linux.value.args).toContain('--unshare-net');
    expect(linux.value.args.slice(-3)).toEqual(['sh', '-c', 'echo hi']);
    const mac = await sandboxedCommand(base({ platform: 'darwin' }));
    if (!mac.ok) throw new Error(mac.message);
    expect(mac.value.command).toBe('/usr/bin/sandbox-exec');
    expect(mac.value.args[0]).toBe('-p');
    expect(mac.value.args[1]).toContain('(deny network*)');
    expect(mac.value.args[1]).toContain(`(allow file-write* (subpath "${project}")`);
    expect(mac.value.args.slice(2)).toEqual(['--', 'sh', '-c', 'echo hi']);
  });

  it('is refused on a platform with neither backend, and on macOS without sandbox-exec', async () => {
    const on = { on: true, network: 'full', home: 'read-only' } as const;
    const win = await sandboxReady(on, {}, 'win32');
    expect(!win.ok && win.message).toMatch(/bubblewrap on Linux and Seatbelt on macOS; this is win32/);
    const mac = await sandboxReady(on, {}, 'darwin');
    expect(!mac.ok && mac.message).toMatch(/sandbox-exec/);
    expect(await sandboxReady(undefined, {}, 'win32')).toEqual({ ok: true, value: true });
  });
});

describe('the hosts an allowlist session reaches', () => {
  it('are its agent\'s API hosts, every API base URL of its environment and the settings\' own', () => {
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4100/v1', OPENAI_BASE_URL: 'https://gw.example.com', OTHER_URL: 'http://x.example:1', FOO_BASE_URL: 'not a url' };
    expect(allowlistHosts(claudeProfile, ['*.npmjs.org'], env)).toEqual(['api.anthropic.com:443', '127.0.0.1:4100', 'gw.example.com:443', '*.npmjs.org']);
    expect(allowlistHosts(shellProfile, [], { X_BASE_URL: 'http://[::1]:8080/' })).toEqual(['[::1]:8080']);
  });
});
