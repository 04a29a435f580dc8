// A FIFO planted in a state dir in place of a file Mori reads or writes (session.json, the work log,
// a lock, session_state.md, a transcript segment) never blocks the daemon: with a real daemon and
// several sessions, every request still answers within a second, the bad session is
// attention(state-invalid) naming the file, and the other sessions run on. An unparsable lock older
// than UNPARSABLE_LOCK_STALE_MS is stale and taken over. The supervisor's own work-log entries never
// sleep on its event loop while a compaction holds the log.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlClient } from '../../main/daemon-client/control-client.js';
import { pidAlive } from '../../main/os/pid-alive.js';
import { COMPACT_LOCK } from '../../main/state/work-log-lock.js';
import { getProfile } from '../../main/agents/profiles.js';
import { systemClock } from '../../main/power/clock.js';
import { tryLock, UNPARSABLE_LOCK_STALE_MS } from '../../main/state/pid-lock.js';
import { readSessionFile } from '../../main/state/session-file.js';
import { createSession } from '../../main/state/state-dir.js';
import { initialRestartState } from '../../main/supervisor/session/restart-policy.js';
import { SessionRuntime } from '../../main/supervisor/session/session-runtime.js';
import { SessionStore } from '../../main/supervisor/session/session-store.js';
import { client } from '../support/daemon.js';
import { runMoriAsync, tempDir } from '../../testkit/mori-cli.js';
import { UpHarness, until } from '../support/mori-up.js';

let h: UpHarness;
let c: ControlClient;
let daemonPid: number;
const NAMES = ['alpha', 'bravo', 'charlie', 'delta'] as const;

function mkfifo(file: string): void {
  if (existsSync(file)) unlinkSync(file);
  const r = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
}

interface LsSession {
  stateDir: string;
  ok: boolean;
  error?: string;
  live: { state: string } | null;
  stateProblem?: { reason?: string; message: string };
}

/** `mori ls --json` as a child process that must finish (a blocked daemon or CLI would not). */
async function ls(): Promise<LsSession[]> {
  const r = await runMoriAsync(['ls', '--json'], { home: h.home, cwd: h.project, env: h.env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { sessions: LsSession[] }).sessions;
}

const entry = (all: LsSession[], name: string): LsSession => {
  const e = all.find((s) => path.basename(s.stateDir) === name);
  if (!e) throw new Error(`no ${name} in ${JSON.stringify(all)}`);
  return e;
};

/** The daemon answers `list` within a second: its event loop is free. */
async function answersFast(): Promise<void> {
  const t0 = Date.now();
  const r = await c.request('list', {});
  expect(r.ok).toBe(true);
  expect(Date.now() - t0).toBeLessThan(1_000);
}

beforeAll(async () => {
  h = new UpHarness('fifos');
  const script = path.join(h.tmp, 'agent.sh');
  writeFileSync(script, 'echo agent-is-up; exec cat\n');
  for (const name of NAMES) {
    const r = h.mori('init', h.project, '--name', name, '--agent', 'shell', '--command', `sh ${script}`, '--backend', 'direct');
    expect(r.code, r.stderr).toBe(0);
  }
  // delta's lock is a FIFO before the daemon even starts: reading it would block the start for good.
  mkfifo(path.join(h.stateDir('delta'), 'session.lock'));
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  daemonPid = Number(/pid (\d+)/.exec(up.stdout)?.[1]);
  ({ c } = await client(h.home));
  for (const name of ['alpha', 'bravo', 'charlie']) {
    await until(`${name} to run`, () => readFileSync(path.join(h.stateDir(name), 'work_log.md'), 'utf8').includes('SESSION STARTED'));
  }
}, 90_000);

afterAll(() => {
  c?.close();
  h.cleanup();
});

describe('a FIFO in a state dir', () => {
  it('as a session.lock at start: that session is not loaded, the daemon starts and the others run', async () => {
    await answersFast();
    const all = await ls();
    for (const name of ['alpha', 'bravo', 'charlie']) expect(entry(all, name).live?.state, name).toBe('running');
    expect(entry(all, 'delta').live).toBeNull();
  });

  it('as session.json: the stop is carried out, the session is attention(state-invalid) naming the file, the others run', { timeout: 60_000 }, async () => {
    const file = path.join(h.stateDir('alpha'), 'session.json');
    mkfifo(file);
    const stop = await runMoriAsync(['stop', 'alpha', '--json'], { home: h.home, cwd: h.project, env: h.env });
    expect(stop.stdout + stop.stderr).toBeTruthy(); // it answered
    await answersFast();
    const all = await ls();
    const alpha = entry(all, 'alpha');
    expect(alpha.ok).toBe(false);
    expect(alpha.error).toContain(file);
    expect(alpha.error).toMatch(/named pipe/);
    expect(alpha.stateProblem?.reason).toBe('state-invalid');
    expect(alpha.stateProblem?.message).toContain(file);
    expect(entry(all, 'bravo').live?.state).toBe('running');
    expect(entry(all, 'charlie').live?.state).toBe('running');
    const text = await runMoriAsync(['ls'], { home: h.home, cwd: h.project, env: h.env });
    expect(text.stdout).toContain(`attention (state-invalid): ${file}`);
  });

  it('as work_log.md: the entry is refused naming the file, the session is attention(state-invalid), the others run', { timeout: 60_000 }, async () => {
    const file = path.join(h.stateDir('bravo'), 'work_log.md');
    mkfifo(file);
    const appended = await c.request('log.append', { session: 'bravo', text: 'through the control API' });
    expect(appended.ok).toBe(false);
    if (!appended.ok) expect(appended.message).toContain(file);
    // The supervisor's own entry (the stop) meets the FIFO too.
    await runMoriAsync(['stop', 'bravo'], { home: h.home, cwd: h.project, env: h.env });
    await answersFast();
    const all = await ls();
    const bravo = entry(all, 'bravo');
    expect(bravo.stateProblem?.reason).toBe('state-invalid');
    expect(bravo.stateProblem?.message).toContain(file);
    expect(entry(all, 'charlie').live?.state).toBe('running');
  });

  it('as the compaction lock, session_state.md or a transcript segment: each request answers and names the file', { timeout: 60_000 }, async () => {
    const dir = h.stateDir('charlie');
    const lock = path.join(dir, COMPACT_LOCK);
    mkfifo(lock);
    const t0 = Date.now();
    const appended = await c.request('log.append', { session: 'charlie', text: 'with a FIFO lock' });
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(appended.ok).toBe(false);
    if (!appended.ok) expect(appended.message).toContain(lock);
    // The refused append left no marker behind that would hold off a later compaction.
    expect(readdirSync(dir).filter((f) => f.startsWith('work_log.appending.') || f.startsWith('work_log.waiting.'))).toEqual([]);
    unlinkSync(lock);

    const state = path.join(dir, 'session_state.md');
    mkfifo(state);
    const read = await c.request('state.read', { session: 'charlie', file: 'session_state.md' });
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toContain(state);

    mkfifo(path.join(dir, 'transcript', '000099.log'));
    const t = await c.request('transcript.read', { session: 'charlie', beforeEnd: 0, maxBytes: 4096 });
    expect(t.ok).toBe(true);

    // `mori status` reads session_state.md itself: it answers, naming the file.
    const status = await runMoriAsync(['status', 'charlie', '--json'], { home: h.home, cwd: h.project, env: h.env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(state);

    await answersFast();
    expect(entry(await ls(), 'charlie').live?.state).toBe('running');
    expect(pidAlive(daemonPid)).toBe(true);
  });
});

describe('an unparsable lock', () => {
  it(`older than ${UNPARSABLE_LOCK_STALE_MS} ms is stale: an append takes over at once`, { timeout: 60_000 }, async () => {
    const dir = h.stateDir('delta');
    const lock = path.join(dir, COMPACT_LOCK);
    writeFileSync(lock, 'not a lock at all\n');
    const old = (Date.now() - UNPARSABLE_LOCK_STALE_MS - 10_000) / 1000;
    utimesSync(lock, old, old);
    const t0 = Date.now();
    const r = await runMoriAsync(['log', 'delta', 'past the garbage lock'], { home: h.home, cwd: h.project, env: h.env });
    expect(r.code, r.stderr).toBe(0);
    // Well under the appender's wait for a live compaction (APPEND_WAIT_MS, 5 s): nothing waited on it.
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(readFileSync(path.join(dir, 'work_log.md'), 'utf8')).toContain('past the garbage lock');
  });
});

describe('the supervisor\'s work-log entries while a compaction holds the log', () => {
  it('are queued without sleeping on the event loop, then appended in order', async () => {
    const root = tempDir('fifos-loop');
    const created = await createSession({ projectDir: root, name: 'busy', profile: 'claude', backend: 'direct', home: path.join(root, 'home') });
    if (!created.ok) throw new Error(created.message);
    const stateDir = created.value.stateDir;
    const file = readSessionFile(stateDir);
    const profile = getProfile('claude');
    if (!file.ok || !profile.ok) throw new Error('setup');
    const rt = new SessionRuntime(stateDir, file.value, profile.value, initialRestartState(), () => undefined);
    const store = new SessionStore({ home: path.join(root, 'home'), clock: systemClock, loaded: () => null });
    // A live compaction (this very process) holds the log.
    const lock = tryLock(path.join(stateDir, COMPACT_LOCK), 'work log compaction');
    expect(lock.ok).toBe(true);
    const t0 = Date.now();
    expect(store.log(rt, 'first while busy')).toBe(true);
    expect(store.log(rt, 'second while busy')).toBe(true);
    // Returned at once: no synchronous wait (APPEND_WAIT_MS is 5 s).
    expect(Date.now() - t0).toBeLessThan(200);
    const log = () => readFileSync(path.join(stateDir, 'work_log.md'), 'utf8');
    expect(log()).not.toContain('while busy');
    if (lock.ok) lock.release();
    await until('the queued entries', () => log().includes('second while busy'));
    expect(log().indexOf('first while busy')).toBeLessThan(log().indexOf('second while busy'));
  });
});
