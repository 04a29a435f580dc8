// Claude Code's background service seen through its roster (daemon/roster.json, as Claude Code
// 2.1.332 writes it: test/support/fixtures/claude-daemon/roster.json): a conversation one of its live
// workers holds is found by its id or short id; a worker whose processes are gone, or whose pid now
// belongs to a later process, holds nothing; a roster that is not one, a FIFO or a symlink in its place
// holds nothing and blocks nothing. The profile opens a held one with `claude attach <short>`. Real
// files and a real child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeDaemonHolding, claudeRosterPath, heldWords, parseClaudeRoster } from '../../../../main/agents/claude/agent-daemon.js';
import { claudeProfile } from '../../../../main/agents/claude/profile.js';
import { processStartTime } from '../../../../main/os/process-start.js';

const FIXTURE = readFileSync(path.join(__dirname, '../../../support/fixtures/claude-daemon/roster.json'), 'utf8');
const SESSION = '3b8ccf36-ac55-4c0a-a2b0-11125cceaba6';
const root = mkdtempSync(path.join(os.tmpdir(), 'mori-claude-daemon-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
/** A config dir whose roster is `text` (or, with `live`, the fixture's worker pointed at a running process). */
function configWith(text: string): Record<string, string> {
  const dir = path.join(root, String(n++));
  mkdirSync(path.join(dir, 'daemon'), { recursive: true });
  writeFileSync(path.join(dir, 'daemon', 'roster.json'), text);
  return { CLAUDE_CONFIG_DIR: dir, HOME: root };
}

/** The fixture with its worker's processes replaced by `pid` started at `start`. */
function rosterFor(pid: number, start: string): string {
  const r = JSON.parse(FIXTURE) as { workers: Record<string, Record<string, unknown>> };
  const w = r.workers['3b8ccf36']!;
  Object.assign(w, { pid, procStart: start, replPid: pid, replProcStart: start });
  return JSON.stringify(r);
}

function liveChild(): ChildProcess {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(c);
  return c;
}
const ticks = (pid: number): string => (processStartTime(pid) ?? '').replace(/^linux:/, '');

describe("Claude Code's background service", () => {
  it('reads the workers of the roster Claude Code 2.1.332 writes', () => {
    const [w, ...rest] = parseClaudeRoster(FIXTURE);
    expect(rest).toHaveLength(0);
    expect(w).toMatchObject({ short: '3b8ccf36', sessionId: SESSION, cwd: '/tmp/cbg/proj' });
    expect(w?.processes.map((p) => p.pid)).toEqual([18132, 18144]);
  });

  it('a conversation a live worker holds is held, by its id and by its short id, with claude attach in the words', async () => {
    const c = liveChild();
    const env = configWith(rosterFor(c.pid as number, ticks(c.pid as number)));
    expect(await claudeDaemonHolding(env, SESSION)).toMatchObject({ short: '3b8ccf36' });
    expect(await claudeDaemonHolding(env, '3b8ccf36')).toMatchObject({ sessionId: SESSION });
    expect(await claudeDaemonHolding(env, '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b')).toBeNull();
    const held = await claudeProfile.ownSupervisor?.holding(env, '3b8ccf36');
    expect(held).toEqual({ words: heldWords((await claudeDaemonHolding(env, SESSION))!), agentSessionId: SESSION, cwd: '/tmp/cbg/proj', attachArgs: ['attach', '3b8ccf36'] });
    expect(held?.words).toContain('claude attach 3b8ccf36');
  });

  it('a worker whose processes ended, or whose pid a later process has, holds nothing', async () => {
    const ended = spawn('true', { stdio: 'ignore' });
    await new Promise((resolve) => ended.once('exit', resolve));
    expect(await claudeDaemonHolding(configWith(rosterFor(ended.pid as number, '1')), SESSION)).toBeNull();
    const c = liveChild();
    // The pid runs, but started at another time than the roster says: a pid reused after the daemon's end.
    expect(await claudeDaemonHolding(configWith(rosterFor(c.pid as number, String(Number(ticks(c.pid as number)) - 1))), SESSION)).toBeNull();
  });

  it('a roster that is not one, a FIFO or a symlink in its place holds nothing, and its reader does not wait', async () => {
    const c = liveChild();
    expect(await claudeDaemonHolding(configWith('{"workers": [1, 2'), SESSION)).toBeNull();
    expect(await claudeDaemonHolding(configWith('{"workers": {"../../x": {"sessionId": "' + SESSION + '", "pid": ' + String(c.pid) + '}}}'), SESSION)).toBeNull();
    const fifoEnv = configWith('');
    const roster = claudeRosterPath(fifoEnv);
    rmSync(roster);
    execFileSync('mkfifo', [roster]);
    expect(await claudeDaemonHolding(fifoEnv, SESSION)).toBeNull();
    const linkEnv = configWith('');
    const real = path.join(root, 'elsewhere.json');
    writeFileSync(real, rosterFor(c.pid as number, ticks(c.pid as number)));
    rmSync(claudeRosterPath(linkEnv));
    symlinkSync(real, claudeRosterPath(linkEnv));
    expect(await claudeDaemonHolding(linkEnv, SESSION)).toBeNull();
  });
});
