// The control API of a real daemon (`mori up --daemon`) over its real socket: hello first and
// protocol versions; session.init; state files read and written against a version (a stale one is a
// conflict and leaves the file untouched); the watcher's event after an external edit, none after
// our own write; the work log paged across its archive; checks listed, verified, and trusted only by
// the current hash; settings; a suspend hint that interrupts and logs before it returns; a client
// that never reads is dropped; a handler that throws is answered and the daemon goes on.
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlClient } from '../../../main/daemon-client/control-client.js';
import type { DaemonEvent } from '../../../common/ipc.js';
import { call, client, waitEvent } from '../../support/daemon.js';
import { UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness;
let c: ControlClient;
let events: DaemonEvent[];
let stateDir: string;

beforeAll(async () => {
  h = new UpHarness('api');
  const init = h.mori('init', h.project, '--name', 'api', '--agent', 'shell', '--command', 'cat', '--backend', 'direct');
  expect(init.code, init.stderr).toBe(0);
  stateDir = h.stateDir('api');
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  ({ c, events } = await client(h.home, true));
  await until('the session to run', () => h.workLog('api').includes('SESSION STARTED'));
}, 60_000);
afterAll(() => {
  c?.close();
  h.cleanup();
});

/** A raw connection: what a client that speaks only JSON lines sees. */
function raw(): Promise<{ socket: net.Socket; lines: () => Record<string, unknown>[]; send: (m: unknown) => void }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(h.home, 'mori.sock'));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        socket,
        // A line cut short by a dropped connection is not a message.
        lines: () => data.split('\n').flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
        send: (m) => socket.write(JSON.stringify(m) + '\n'),
      }),
    );
  });
}

describe('the control API', () => {
  it('answers nothing before hello, and tells a client of another version what to do', async () => {
    const r = await raw();
    r.send({ id: 1, method: 'list', params: {} });
    await until('a reply', () => r.lines().length === 1);
    expect(r.lines()[0]).toMatchObject({ id: 1, ok: false, code: 'usage', message: expect.stringMatching(/say hello first/) });
    r.send({ id: 2, method: 'hello', params: { protocol: 99 } });
    r.send({ id: 3, method: 'list', params: {} });
    await until('two more replies', () => r.lines().length === 3);
    expect(r.lines()[1]).toMatchObject({ id: 2, ok: true, value: { protocol: 1, home: h.home } });
    expect(r.lines()[2]).toMatchObject({ id: 3, ok: false, code: 'conflict', message: expect.stringMatching(/speaks protocol 1, this client 99: .*mori down && mori up --daemon/) });
    r.socket.destroy();
  });

  it('session.init creates and loads a session, not started', async () => {
    const project = path.join(h.tmp, 'other');
    mkdirSync(project);
    const info = await call(c, 'session.init', { projectDir: project, name: 'fresh', profile: 'shell', backend: 'direct', command: 'cat', task: 'from the API' });
    expect(info).toMatchObject({ name: 'fresh', state: 'idle', pid: null, stateDir: path.join(project, '.mori', 'fresh') });
    expect((await call(c, 'list', {})) as unknown as { name: string }[]).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'fresh' })]));
    expect(readFileSync(path.join(project, '.mori', 'fresh', 'session_state.md'), 'utf8')).toMatch(/from the API/);
    const noCommand = await c.request('session.init', { projectDir: project, name: 'bad', profile: 'shell', backend: 'direct' });
    expect(noCommand).toMatchObject({ ok: false, code: 'usage' });

    // A state file that is a symlink is neither read nor written through.
    const env = path.join(project, '.mori', 'fresh', 'environment.md');
    const secret = path.join(h.tmp, 'secret.txt');
    writeFileSync(secret, 'not for the UI');
    rmSync(env);
    symlinkSync(secret, env);
    expect(await c.request('state.read', { session: 'fresh', file: 'environment.md' })).toMatchObject({ ok: false, code: 'unreadable', message: expect.stringMatching(/symlink/) });
    expect(await c.request('state.write', { session: 'fresh', file: 'environment.md', text: 'x', baseVersion: 'sha256:0' })).toMatchObject({ ok: false, code: 'unreadable' });
    expect(readFileSync(secret, 'utf8')).toBe('not for the UI');
  });

  it('state.write takes only the version read; a stale one is a conflict and leaves the file untouched', async () => {
    const file = path.join(stateDir, 'session_state.md');
    const read = await call(c, 'state.read', { session: 'api', file: 'session_state.md' });
    expect(read.text).toBe(readFileSync(file, 'utf8'));
    const mine = `${String(read.text)}\n- edited through the API\n`;
    const written = await call(c, 'state.write', { session: 'api', file: 'session_state.md', text: mine, baseVersion: String(read.version) });
    expect(written.outcome).toBe('written');
    expect(readFileSync(file, 'utf8')).toBe(mine);

    // Someone else edits the file; the watcher reports it (our own write above is not reported).
    const theirs = `${mine}- edited by the agent\n`;
    writeFileSync(file, theirs);
    await waitEvent(events, 'state.changed', (e) => e.type === 'state.changed' && e.file === 'session_state.md' && e.name === 'api');
    expect(events.filter((e) => e.type === 'state.changed' && e.file === 'session_state.md')).toHaveLength(1);

    const stale = await call(c, 'state.write', { session: 'api', file: 'session_state.md', text: 'overwrite', baseVersion: String(written.version) });
    expect(stale).toMatchObject({ outcome: 'conflict', text: theirs });
    expect(stale.version).not.toBe(written.version);
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    expect(await c.request('state.read', { session: 'api', file: 'session.json' as 'work_log.md' })).toMatchObject({ ok: false, code: 'usage' });
  });

  it('log.append returns the entry; log.tail pages back through the archive by stable indexes', async () => {
    writeFileSync(path.join(stateDir, 'work_log.archive.md'), ['## 2026-01-01 10:00', '- archived one', '', '## 2026-01-01 11:00', '- archived two', ''].join('\n'));
    const before = events.length;
    const entry = await call(c, 'log.append', { session: 'api', text: 'first line\nsecond line' });
    expect(entry).toMatchObject({ lines: ['first line', 'second line'], archived: false });
    await waitEvent(events, 'log.appended', (e) => e.type === 'log.appended' && e.name === 'api', before);
    const newest = await call(c, 'log.tail', { session: 'api', limit: 2 });
    const page = newest.entries as { index: number; lines: string[] }[];
    expect(page[page.length - 1]).toEqual(entry);
    expect(newest.total).toBe(Number(entry.index) + 1);
    expect(newest.more).toBe(true);
    const oldest = await call(c, 'log.tail', { session: 'api', before: 2, limit: 10 });
    expect(oldest).toMatchObject({ more: false, entries: [{ index: 0, lines: ['archived one'], archived: true }, { index: 1, lines: ['archived two'], archived: true }] });
  });

  it('lists checks with their sources, trusts only the list shown (a stale hash is refused), and verifies', async () => {
    const env = await call(c, 'state.read', { session: 'api', file: 'environment.md' });
    const first = `${String(env.text)}\n- command: \`true\`\n`;
    const w1 = await call(c, 'state.write', { session: 'api', file: 'environment.md', text: first, baseVersion: String(env.version) });
    const listed = await call(c, 'checks.list', { session: 'api' });
    const check = (listed.checks as { kind: string; target: string; source: { file: string; line: number }; needsTrust: boolean; trusted: boolean }[])[0];
    expect(check).toMatchObject({ kind: 'command', target: 'true', needsTrust: true, trusted: false, source: { file: 'environment.md' } });
    const shownHash = (listed.trust as { hash: string }).hash;

    // The list changes after it was shown: approving what was shown approves nothing.
    await call(c, 'state.write', { session: 'api', file: 'environment.md', text: first.replace('`true`', '`echo changed`'), baseVersion: String(w1.version) });
    const refused = await c.request('checks.trust', { session: 'api', hash: shownHash });
    expect(refused).toMatchObject({ ok: false, code: 'conflict' });
    expect((await call(c, 'checks.list', { session: 'api' })).trust).toMatchObject({ trusted: false });

    const now = await call(c, 'checks.list', { session: 'api' });
    const hash = (now.trust as { hash: string }).hash;
    expect(await call(c, 'checks.trust', { session: 'api', hash })).toMatchObject({ hash, items: 1 });
    expect((await call(c, 'checks.list', { session: 'api' })).trust).toMatchObject({ trusted: true, hash });

    const before = events.length;
    const verified = await call(c, 'checks.verify', { session: 'api' });
    expect(verified).toMatchObject({ ok: true, message: 'checks 1/1 passed', results: [{ kind: 'command', target: 'echo changed', status: 'pass' }] });
    await waitEvent(events, 'verify.finished', (e) => e.type === 'verify.finished' && e.ok, before);
    expect(events.slice(before).some((e) => e.type === 'verify.started')).toBe(true);
  });

  it('a verification asked for 30 times at once, over 3 connections, runs its checks once; every caller gets that result', async () => {
    const runs = path.join(h.project, 'verify-runs.txt');
    const env = await call(c, 'state.read', { session: 'api', file: 'environment.md' });
    // A check slow enough (0.5 s) that every request arrives while it runs, counting its own runs.
    const text = `${String(env.text).replace(/- command: `echo changed`\n/, '')}\n- command: \`sh -c 'echo run >> ${runs}; sleep 0.5'\`\n`;
    await call(c, 'state.write', { session: 'api', file: 'environment.md', text, baseVersion: String(env.version) });
    const hash = ((await call(c, 'checks.list', { session: 'api' })).trust as { hash: string }).hash;
    await call(c, 'checks.trust', { session: 'api', hash });
    const others = await Promise.all([client(h.home), client(h.home)]);
    try {
      const before = events.length;
      const clients = [c, ...others.map((o) => o.c)];
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => clients[i % 3]!.request('checks.verify', { session: 'api' })));
      expect(answers.every((a) => a.ok)).toBe(true);
      expect(readFileSync(runs, 'utf8').trim().split('\n')).toHaveLength(1);
      await waitEvent(events, 'verify.finished', (e) => e.type === 'verify.finished', before);
      expect(events.slice(before).filter((e) => e.type === 'verify.started')).toHaveLength(1);
      // Once it ended, the next request runs the checks again.
      expect((await c.request('checks.verify', { session: 'api' })).ok).toBe(true);
      expect(readFileSync(runs, 'utf8').trim().split('\n')).toHaveLength(2);
    } finally {
      for (const o of others) o.c.close();
    }
  });

  it('settings are read, validated, written atomically (0600) and announced', async () => {
    const defaults = await call(c, 'settings.get', {});
    expect(defaults).toMatchObject({ probeTargets: null, restart: { baseDelayMs: null } });
    const before = events.length;
    const next = { ...defaults, probeTargets: ['127.0.0.1:9'], restart: { baseDelayMs: 500, maxDelayMs: null, crashLoopCount: 3 } };
    expect(await call(c, 'settings.set', { settings: next as never })).toMatchObject({ probeTargets: ['127.0.0.1:9'] });
    const file = path.join(h.home, 'settings.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await waitEvent(events, 'settings.changed', (e) => e.type === 'settings.changed', before);
    const stored = readFileSync(file, 'utf8');
    expect(await c.request('settings.set', { settings: { ...next, probeTargets: ['no port'] } as never })).toMatchObject({ ok: false, code: 'usage' });
    expect(readFileSync(file, 'utf8')).toBe(stored);
    expect(await call(c, 'hint.network', { state: 'online' })).toEqual({});
  });

  it('a handler that throws is answered with a failure and the daemon goes on', async () => {
    const project = path.join(h.tmp, 'broken');
    mkdirSync(project);
    await call(c, 'session.init', { projectDir: project, name: 'broken', profile: 'shell', backend: 'direct', command: 'cat' });
    const log = path.join(project, '.mori', 'broken', 'work_log.md');
    rmSync(log);
    mkdirSync(log); // appending to it now throws EISDIR inside the handler
    const r = await c.request('log.append', { session: 'broken', text: 'x' });
    expect(r).toMatchObject({ ok: false, code: 'failed', message: expect.stringMatching(/EISDIR/) });
    expect((await c.request('list', {})).ok).toBe(true);
  });

  it('drops a client that never reads, with a reason, and keeps serving the others', async () => {
    writeFileSync(path.join(stateDir, 'session_state.md'), 'x'.repeat(900_000));
    const r = await raw();
    r.socket.pause();
    r.send({ id: 1, method: 'hello', params: { protocol: 1 } });
    // 40 replies of 900 kB: far past the 16 MiB a connection may leave unread.
    for (let i = 0; i < 40; i++) r.send({ id: 2 + i, method: 'state.read', params: { session: 'api', file: 'session_state.md' } });
    const closed = new Promise<void>((resolve) => r.socket.once('close', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the daemon has DROP_GRACE_MS to cut it
    r.socket.resume();
    await closed;
    expect(r.lines().filter((l) => l['kind'] === 'reply').length).toBeLessThan(40);
    expect(readFileSync(path.join(h.home, 'logs', 'daemon.err.log'), 'utf8')).toMatch(/dropped a control connection: the connection stopped reading/);
    expect((await c.request('list', {})).ok).toBe(true);
  });

  it('a suspend hint interrupts and logs every running session before it answers (its checkpoints follow)', async () => {
    const r = await call(c, 'hint.power', { kind: 'suspend' });
    expect(r).toEqual({ interrupted: 1 });
    expect(h.workLog('api')).toMatch(/SESSION INTERRUPTED - [^\n]*sleep/i);
    const api = ((await call(c, 'list', {})) as unknown as { name: string; state: string }[]).find((s) => s.name === 'api');
    expect(api?.state).toBe('interrupted');
    expect(await call(c, 'hint.power', { kind: 'resume' })).toEqual({ interrupted: 0 });
  });
});
