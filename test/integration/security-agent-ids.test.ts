// The agent session id lives in session.json, which the agent can write, and a relaunch puts it on
// the agent's command line; a custom template may hand that line to a shell. So a stored id must have
// its profile's form, and a template may not bury a placeholder in text a shell reads — refused at
// `mori init`, `mori trust`, the session.init API and at launch. Real `mori`, real shells, a marker file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCommandHash } from '../../main/checks/trust.js';
import { readApprovals, recordApproval } from '../../main/checks/trust-store.js';
import { call, client } from '../support/daemon.js';
import { hasEvent, until, UpHarness } from '../support/mori-up.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

type Json = Record<string, unknown> & { agent: Record<string, unknown> };
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const change = (file: string, f: (j: Json) => void): void => {
  const j = readJson(file);
  f(j);
  writeFileSync(file, JSON.stringify(j, null, 2));
};

describe('a forged agent session id', () => {
  it('is refused at the relaunch (state-invalid, naming the file and field) and never reaches the shell', async () => {
    h = new UpHarness('agent-ids');
    const marker = path.join(h.tmp, 'marker');
    const record = path.join(h.tmp, 'ran');
    const init = h.mori('init', h.project, '--name', 'ids', '--agent', 'custom', '--command', `sh -c 'echo "$1" >> "$0"; exec sleep 600' '${record}' {id}`, '--backend', 'direct');
    expect(init.code, init.stderr).toBe(0);
    const stateDir = h.stateDir('ids');
    const file = path.join(stateDir, 'session.json');
    // A template an older Mori let the person approve, where {id} is part of the shell's script.
    const unsafe = `sh -c 'echo resumed {id} >> ${record}; exec sleep 600'`;
    change(file, (j) => {
      j.agent = { ...j.agent, command: unsafe, sessionId: `x; touch ${marker}` };
      j['intent'] = { kind: 'interrupted', reason: 'crash' };
    });
    const approved = await recordApproval(h.home, stateDir, 'agent-command', agentCommandHash({ profile: 'custom', command: unsafe }));
    expect(approved.ok).toBe(true);

    const up = h.up(['ids']);
    await until('attention (or the shell running the id)', () => hasEvent(up, 'session.attention', { name: 'ids' }) || existsSync(marker), () => up.stderr());
    expect(existsSync(marker)).toBe(false);
    const attention = up.lines().find((e) => e['type'] === 'session.attention') ?? {};
    expect(attention['reason']).toBe('state-invalid');
    expect(String(attention['message'])).toContain(`${file}: agent.sessionId: "x; touch ${marker}" is not a custom session id`);
    expect(h.workLog('ids')).toContain('SESSION NEEDS ATTENTION - state-invalid');
    expect(hasEvent(up, 'session.started', { name: 'ids' })).toBe(false);

    // With a plain id the old template is still refused, approval or not: its {id} is shell code.
    change(file, (j) => {
      j.agent = { ...j.agent, sessionId: 'plain-id' };
    });
    const start = h.mori('start', 'ids');
    await until('second attention', () => up.lines().filter((e) => e['type'] === 'session.attention').length >= 2, () => `${start.stderr} ${up.stderr()}`);
    const second = up.lines().filter((e) => e['type'] === 'session.attention')[1] ?? {};
    expect(second['reason']).toBe('launch-failed');
    expect(String(second['message'])).toContain('{id} is inside the word');
    expect(hasEvent(up, 'session.started', { name: 'ids' })).toBe(false);
    // The daemon still answers.
    expect(h.mori('ls').code).toBe(0);

    up.child.kill('SIGTERM');
    expect(await up.exited).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(record)).toBe(false);
  });

  it('a valid id reaches a whole-word {id} as one argument', async () => {
    h = new UpHarness('agent-ids-ok');
    const record = path.join(h.tmp, 'ran');
    const init = h.mori('init', h.project, '--name', 'ok', '--agent', 'custom', '--command', `sh -c 'echo "[$1]" >> "$0"; exec sleep 600' '${record}' {id}`, '--backend', 'direct');
    expect(init.code, init.stderr).toBe(0);
    change(path.join(h.stateDir('ok'), 'session.json'), (j) => {
      j.agent = { ...j.agent, sessionId: 'earlier.id_1' };
      j['intent'] = { kind: 'interrupted', reason: 'crash' };
    });
    const up = h.up(['ok']);
    await until('started', () => hasEvent(up, 'session.started', { name: 'ok' }) && existsSync(record), () => up.stderr());
    await until('recorded', () => readFileSync(record, 'utf8').includes('\n'));
    expect(readFileSync(record, 'utf8')).toBe('[earlier.id_1]\n');
    up.child.kill('SIGTERM');
    expect(await up.exited).toBe(0);
  });
});

describe('a placeholder inside shell text', () => {
  it('is refused by `mori init` (exit 2, nothing created); the whole-word form is accepted', () => {
    h = new UpHarness('agent-ids-init');
    const bad = h.mori('init', h.project, '--name', 'bad', '--agent', 'custom', '--command', `sh -c 'agent --resume {id}'`, '--backend', 'direct');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--command: {id} is inside the word "agent --resume {id}"`);
    expect(bad.stderr).toContain('Make the placeholder a word of its own');
    expect(existsSync(h.stateDir('bad'))).toBe(false);
    const good = h.mori('init', h.project, '--name', 'good', '--agent', 'custom', '--command', `sh -c 'agent --resume "$1"' sh {id}`, '--backend', 'direct');
    expect(good.code, good.stderr).toBe(0);
  });

  it('is refused by `mori trust`, which approves nothing', () => {
    h = new UpHarness('agent-ids-trust');
    const init = h.mori('init', h.project, '--name', 't', '--agent', 'shell', '--command', 'cat', '--backend', 'direct');
    expect(init.code, init.stderr).toBe(0);
    const file = path.join(h.stateDir('t'), 'session.json');
    change(file, (j) => {
      j.agent = { ...j.agent, command: `sh -c 'cat {prompt}'` };
    });
    const before = readApprovals(h.home);
    const r = h.mori('trust', 't', '--yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: agent.command: {prompt} is inside the word "cat {prompt}"`);
    expect(r.stderr).toContain('nothing was approved');
    expect(readApprovals(h.home)).toEqual(before);
  });

  it('is refused by the session.init API', async () => {
    h = new UpHarness('agent-ids-api');
    const up = h.mori('up', '--daemon');
    expect(up.code, up.stderr).toBe(0);
    const { c } = await client(h.home);
    try {
      const bad = await c.request('session.init', { projectDir: h.project, name: 'bad', profile: 'custom', backend: 'direct', command: `bash -c 'agent "--id={id}"'` });
      expect(bad).toMatchObject({ ok: false, code: 'usage' });
      expect(JSON.stringify(bad)).toContain('{id} is inside the word');
      expect(existsSync(h.stateDir('bad'))).toBe(false);
      const good = await call(c, 'session.init', { projectDir: h.project, name: 'good', profile: 'custom', backend: 'direct', command: `bash -c 'agent "--id=$1"' bash {id}` });
      expect(good).toMatchObject({ name: 'good' });
    } finally {
      c.close();
    }
  });
});
