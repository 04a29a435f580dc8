// `mori up` as a real process with real tmux, real ptys and the real control socket: a SIGKILLed
// supervisor's tmux session is re-attached (REATTACHED) by the next one; a direct session is resumed
// with its resume command and the same agent session id; a second `mori up` refuses; SIGTERM leaves
// tmux running and exits 0; the socket is private and the control commands act through it.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MORI_BIN, runMori } from '../../../testkit/mori-cli.js';
import { hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { until as waitUntil } from '../../../testkit/until.js';

let h: UpHarness;
let home: string;
let project: string;
let record: string;
let socketName: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  h = new UpHarness('sup-up');
  ({ home, project, record, socketName, env } = h);
});
afterEach(() => h.cleanup());

const up = (args: string[] = []): Up => h.up(args);
const mori = (...args: string[]) => h.mori(...args);
const starts = () => h.starts();
const workLog = (name: string): string => h.workLog(name);
const until = (what: string, ok: () => boolean, extra = ''): Promise<void> => waitUntil(what, ok, () => extra);

function init(name: string, backend: 'tmux' | 'direct'): void {
  h.init(name, backend);
}

describe('mori up', () => {
  it('re-attaches a tmux session after a SIGKILLed supervisor and logs REATTACHED; SIGTERM leaves it running', async () => {
    init('tm', 'tmux');
    const first = up();
    await until('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first.stderr());
    expect(starts()).toHaveLength(1);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(spawnSync('tmux', ['-L', socketName, 'ls']).status).toBe(0);

    const second = up();
    await until('re-attach', () => hasEvent(second, 'session.started', { launch: 'reattach' }), second.stderr());
    expect(workLog('tm')).toMatch(/REATTACHED - tmux session mori-/);
    expect(starts()).toHaveLength(1); // the same agent, not a new one
    // The re-attached terminal is live: typed text reaches the agent.
    expect(mori('send', 'tm', 'print:hello').code).toBe(0);
    await until('the input to arrive', () => readFileSync(record, 'utf8').includes('"line":"print:hello"'));

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(workLog('tm')).toMatch(/SESSION INTERRUPTED - supervisor stopped/);
    expect(spawnSync('tmux', ['-L', socketName, 'ls']).status).toBe(0);
  });

  it('answers a sleep the killed supervisor logged but never resumed: re-attached, then verified and nudged once', async () => {
    init('slept', 'tmux');
    const first = up();
    await until('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first.stderr());
    first.child.kill('SIGKILL');
    await first.exited;
    // What a supervisor killed between a sleep and its wake leaves: the sleep logged, the intent interrupted.
    const file = path.join(h.stateDir('slept'), 'session.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), intent: { kind: 'interrupted', reason: 'sleep' } }, null, 2));
    const inputsBefore = readFileSync(record, 'utf8').split('\n').filter((l) => l.includes('"input"')).length;

    const second = up();
    await until('the resume after the re-attach', () => /SESSION RESUMED - system sleep/.test(workLog('slept')), second.stderr());
    const log = workLog('slept');
    expect(log.indexOf('REATTACHED')).toBeGreaterThan(-1);
    expect(log.indexOf('REATTACHED')).toBeLessThan(log.indexOf('SESSION RESUMED - system sleep'));
    expect(log).toMatch(/SESSION RESUMED - system sleep;.*nudged to continue/);
    expect(log.match(/^- SESSION RESUMED/gm), log).toHaveLength(1);
    expect(starts()).toHaveLength(1); // the same agent, nudged, not a new one
    await until('the nudge to reach the agent', () => readFileSync(record, 'utf8').split('\n').filter((l) => l.includes('"input"')).length > inputsBefore);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('resumes a direct session with its resume command and the same agent session id after a SIGKILL', async () => {
    init('dr', 'direct');
    const first = up();
    await until('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first.stderr());
    first.child.kill('SIGKILL');
    await first.exited;

    const second = up();
    await until('the resume', () => hasEvent(second, 'session.resumed') && starts().length === 2, second.stderr());
    const [a, b] = starts();
    expect(a?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.argv.slice(0, 2)).toEqual(['--resume', a?.sessionId]);
    expect(workLog('dr')).toMatch(/SESSION INTERRUPTED - Mori exited/);
    expect(workLog('dr')).toMatch(/SESSION RESUMED - Mori exited; (?:checks [^;]*|no checks to run[^;]*); agent relaunched with its resume command/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    // The direct agent was ended cleanly with the supervisor.
    await until('the agent to exit', () => readFileSync(record, 'utf8').trim().split('\n').filter((l) => l.includes('"event":"exit"')).length >= 1);
  });

  it('refuses a second supervisor, keeps the socket private, and acts through it', async () => {
    init('ctl', 'direct');
    const first = up();
    await until('ready', () => hasEvent(first, 'supervisor.ready') && starts().length === 1, first.stderr());
    const second = runMori(['up'], { home, cwd: project, env });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/another Mori supervisor is running/);
    expect(statSync(path.join(home, 'mori.sock')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);

    const attach = mori('attach', 'ctl');
    expect(attach.code).toBe(2);
    expect(attach.stderr).toMatch(/needs a terminal/);

    const stop = mori('stop', 'ctl', '--json');
    expect(stop.code, stop.stderr).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ ok: true, session: { state: 'stopped' } });
    await new Promise((r) => setTimeout(r, 800));
    expect(starts()).toHaveLength(1);
    expect(mori('send', 'ctl', 'hi').code).toBe(1);
    expect(mori('start', 'ctl').code).toBe(0);
    await until('a second start', () => starts().length === 2);
    // The person's start after their stop is said as such, not as Mori having exited.
    await until('the resume in the work log', () => /SESSION RESUMED - started again on request/.test(workLog('ctl')));
    expect(workLog('ctl')).not.toMatch(/SESSION RESUMED - Mori exited/);
    expect(mori('stop', 'nope').code).toBe(3);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    // With none running, a control command starts the daemon and says so.
    expect(mori('stop', 'ctl').stderr).toMatch(/no Mori supervisor is running; started a daemon/);
  });

  it('attaches a terminal: sees the screen, types into the agent, detaches with Ctrl-] and leaves it running', { timeout: 90_000 }, async () => {
    init('att', 'direct');
    const first = up();
    await until('the agent to wait', () => hasEvent(first, 'session.activity', { to: 'waiting' }), first.stderr());
    const pty = spawnPty(process.execPath, [MORI_BIN, 'attach', 'att'], { cwd: project, env: { ...process.env, MORI_HOME: home, ...env } as Record<string, string>, cols: 100, rows: 30 });
    let screen = '';
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    try {
      await until('the snapshot', () => screen.includes('? for shortcuts'), screen);
      pty.write('print:via-attach\r');
      await until('the typed line to reach the agent', () => readFileSync(record, 'utf8').includes('"line":"print:via-attach"'));
      await until('its output to come back', () => /\r\n[^\n]*via-attach/.test(screen), JSON.stringify(screen.slice(-600)));
      pty.write('\x1d');
      expect(await exited).toBe(0);
      expect(screen).toMatch(/\[mori: detached\]/);
    } finally {
      pty.kill();
    }
    expect(mori('send', 'att', 'print:still-here').code).toBe(0);
    await until('the agent to still run', () => readFileSync(record, 'utf8').includes('"line":"print:still-here"'));
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('refuses to open the socket in a home others can read', async () => {
    mkdirSync(home, { recursive: true });
    chmodSync(home, 0o755);
    const r = runMori(['up'], { home, cwd: project, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/chmod 700/);
  });
});
