// Claude Code in a bubblewrap sandbox, with real bwrap: its status file, named by the pid it has
// inside the sandbox's pid namespace, is found from outside by the terminal's process, and not when
// it names another folder (another sandbox's claude with the same pid inside); and its global
// config, which it rewrites by a temporary file renamed over it, lives in its bound config dir
// (seeded once from ~/.claude.json), so the rewrite works under a read-only home.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findClaudeStatusUnder } from '../../../../main/agents/claude/session-status.js';
import { claudeProfile } from '../../../../main/agents/claude/profile.js';
import { innerPidsUnder } from '../../../../main/os/process-tree.js';
import { sandboxedCommand } from '../../../../main/supervisor/launch/sandbox-launch.js';
import { SessionNetProxies } from '../../../../main/supervisor/launch/sandbox-network.js';
import { until } from '../../../../testkit/until.js';

const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
// Not under /tmp: the sandbox's private /tmp would make the home a writable tmpfs, which a person's is not.
const root = realpathSync(mkdtempSync(path.join('/var/tmp', 'mori-sbx-claude-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a sandboxed claude', () => {
  it("is found by its status file named for its pid inside the sandbox, from the terminal's process outside", async () => {
    const home = path.join(root, 'a', 'home');
    const dir = path.join(home, '.claude', 'sessions');
    mkdirSync(dir, { recursive: true });
    // claude's file, named by the pid it has and holding it: printf's %s is the shell's own pid ($$).
    const script = `printf '{"pid":%s,"sessionId":"${UUID}","cwd":"${dir}","status":"idle"}' $$ > "${dir}/$$.json"; exec sleep 30`;
    const child = spawn('bwrap', ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', dir, dir, '--chdir', dir, '--', 'sh', '-c', script], { stdio: 'ignore' });
    try {
      const env = { HOME: home };
      const written = (): string => readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')).join('');
      await until('the status file written inside the sandbox', () => written().includes('idle'));
      const named = Number(readdirSync(dir)[0]?.replace('.json', ''));
      // Its pid inside is not a pid of the tree outside: a look by outer pids misses it.
      expect(named).not.toBe(child.pid);
      const found = await findClaudeStatusUnder(env, child.pid as number, innerPidsUnder);
      expect(found?.sessionId).toBe(UUID);
      expect(found?.pid).toBe(named);
      // Another sandbox's claude has the same pid inside and writes the same file: naming another folder, it is not this one's.
      const file = path.join(dir, `${named}.json`);
      writeFileSync(file, JSON.stringify({ pid: named, sessionId: '11111111-2222-4333-8444-555555555555', cwd: path.join(root, 'other'), status: 'busy' }));
      expect(await findClaudeStatusUnder(env, child.pid as number, innerPidsUnder)).toBeNull();
      // Under a process that is not there: nothing.
      expect(await findClaudeStatusUnder(env, 2 ** 22 + 1, innerPidsUnder)).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('keeps its global config in its bound config dir, seeded once from ~/.claude.json, and rewrites it by rename under a read-only home', async () => {
    const home = path.join(root, 'b', 'home');
    const project = path.join(root, 'b', 'proj');
    mkdirSync(path.join(project, '.mori', 's'), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, '.claude.json'), '{"hasCompletedOnboarding":true}');
    // What claude does to save it (checked in 2.1.332): a temporary file beside it, renamed over it.
    const save = 'f="${CLAUDE_CONFIG_DIR:-$HOME}/.claude.json"; sed "s/}/,\\"saved\\":1}/" "$f" > "$f.tmp.1" && mv "$f.tmp.1" "$f"';
    const line = await sandboxedCommand({
      sessionId: '00000000-0000-4000-8000-000000000002',
      session: { on: true, network: 'none', home: 'read-only' },
      settings: { readWrite: [], readOnly: [] },
      profile: claudeProfile,
      workDir: project,
      stateDir: path.join(project, '.mori', 's'),
      moriHome: path.join(root, 'b', 'mori'),
      hooks: null,
      env: { HOME: home },
      bwrap: 'bwrap',
      command: 'sh',
      args: ['-c', save],
      proxies: new SessionNetProxies(path.join(root, 'b', 'mori')),
      platform: 'linux',
    });
    if (!line.ok) throw new Error(line.message);
    expect(line.value.env).toEqual({ CLAUDE_CONFIG_DIR: path.join(home, '.claude') });
    const run = spawnSync(line.value.command, line.value.args, { env: { ...process.env, HOME: home, ...line.value.env }, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(readFileSync(path.join(home, '.claude', '.claude.json'), 'utf8'))).toEqual({ hasCompletedOnboarding: true, saved: 1 });
    // Seeded once: the next launch keeps what claude wrote since.
    const again = await sandboxedCommand({ ...{ sessionId: 'x', session: { on: true, network: 'none', home: 'read-only' }, settings: { readWrite: [], readOnly: [] }, profile: claudeProfile, workDir: project }, ...{ stateDir: path.join(project, '.mori', 's'), moriHome: path.join(root, 'b', 'mori'), hooks: null, env: { HOME: home }, bwrap: 'bwrap', command: 'true', args: [], proxies: new SessionNetProxies(path.join(root, 'b', 'mori')), platform: 'linux' } });
    expect(again.ok).toBe(true);
    expect(readFileSync(path.join(home, '.claude', '.claude.json'), 'utf8')).toContain('"saved":1');
  });
});
