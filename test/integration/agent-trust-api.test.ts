// `agent.trust` over a real daemon's socket: `checks.list` shows a shell session's changed agent
// command (the exact line, its hash, not trusted, changed); a supervised agent asking `agent.trust`
// over a raw socket client is refused `forbidden` and nothing is approved; a hash shown before
// session.json changed again is a `conflict` and nothing starts; the current hash approves exactly
// that command, the session waiting for it starts and runs it (a marker file says which), and the
// work log records the approval. A profile that runs its own program has nothing to approve.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlClient } from '../../main/daemon-client/control-client.js';
import type { ChecksListing, DaemonEvent, LiveSession } from '../../common/ipc.js';
import { APPROVALS_FROM_PERSON } from '../../main/daemon/approval-gate.js';
import { call, client, waitEvent } from '../support/daemon.js';
import { UpHarness } from '../support/mori-up.js';
import { until, untilValue } from '../../testkit/until.js';

let h: UpHarness;
let c: ControlClient;
let events: DaemonEvent[];
let marker: string;
let asked: string;
let trustBefore: Buffer;

/** A raw control-socket client, as an agent could write one: lists trusty's checks, asks to approve its agent command. */
const RAW_CLIENT = `
import net from 'node:net';
import { writeFileSync } from 'node:fs';
const [sock, out] = process.argv.slice(2);
const s = net.connect(sock);
let buf = '';
const waiting = new Map();
s.setEncoding('utf8');
s.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const m = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if (m.kind === 'reply') waiting.get(m.id)?.(m);
  }
});
let id = 0;
const ask = (method, params) => new Promise((resolve) => {
  const n = ++id;
  waiting.set(n, resolve);
  s.write(JSON.stringify({ id: n, method, params }) + '\\n');
});
await new Promise((r) => s.once('connect', r));
await ask('hello', { protocol: 1 });
const listed = await ask('checks.list', { session: 'trusty' });
const trust = await ask('agent.trust', { session: 'trusty', hash: listed.value?.agentCommand?.hash ?? 'x' });
writeFileSync(out, JSON.stringify({ listed, trust }));
s.end();
`;

const command = (word: string): string => `sh -c "echo ${word} >> '${marker}'; exec sleep 600"`;

function setCommand(line: string): void {
  const file = path.join(h.stateDir('trusty'), 'session.json');
  const j = JSON.parse(readFileSync(file, 'utf8')) as { agent: { command: string } };
  j.agent.command = line;
  writeFileSync(file, JSON.stringify(j, null, 2));
}

const listing = async (name: string): Promise<ChecksListing> => (await call(c, 'checks.list', { session: name })) as unknown as ChecksListing;

beforeAll(async () => {
  h = new UpHarness('agent-trust-api');
  marker = path.join(h.tmp, 'marker');
  asked = path.join(h.tmp, 'asked.json');
  const clientFile = path.join(h.tmp, 'client.mjs');
  writeFileSync(clientFile, RAW_CLIENT);
  // Approved at init, then changed in session.json as an agent or a cloned repository could.
  expect(h.mori('init', h.project, '--name', 'trusty', '--agent', 'shell', '--command', command('approved'), '--backend', 'direct').code).toBe(0);
  setCommand(command('changed'));
  const sock = path.join(h.home, 'mori.sock');
  const script = path.join(h.tmp, 'asker.sh');
  // The agents may start before the daemon's socket listens: the client waits for it.
  writeFileSync(script, `while [ ! -S '${sock}' ]; do sleep 0.1; done\n'${process.execPath}' '${clientFile}' '${sock}' '${asked}' 2> '${asked}.err'\nexec sleep 600\n`);
  const init = h.mori('init', h.project, '--name', 'asker', '--agent', 'shell', '--command', `sh ${script}`, '--backend', 'direct');
  expect(init.code, init.stderr).toBe(0);
  h.init('plain', 'direct');
  trustBefore = readFileSync(path.join(h.home, 'trust.json'));
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  ({ c, events } = await client(h.home, true));
}, 60_000);
afterAll(() => {
  c?.close();
  h.cleanup();
});

describe('agent.trust', () => {
  it('is refused from inside a supervised agent, and approves nothing', async () => {
    await until('the agent asked', () => existsSync(asked), () => (existsSync(`${asked}.err`) ? readFileSync(`${asked}.err`, 'utf8') : ''));
    const { listed, trust } = JSON.parse(readFileSync(asked, 'utf8')) as { listed: { ok: boolean }; trust: { ok: boolean; code: string; message: string } };
    expect(listed.ok).toBe(true);
    expect(trust).toMatchObject({ ok: false, code: 'forbidden' });
    expect(trust.message).toMatch(/approving a session's agent command to run is refused from inside a supervised agent/);
    expect(trust.message).toContain(APPROVALS_FROM_PERSON);
    expect(readFileSync(path.join(h.home, 'trust.json')).equals(trustBefore)).toBe(true);
    await until('the refusal in the asker\'s work log', () => h.workLog('asker').includes('APPROVAL REFUSED - agent.trust'));
    expect(existsSync(marker)).toBe(false);
  });

  it('checks.list shows the changed command; a stale hash is a conflict; the current one approves it and the waiting session starts', async () => {
    const waiting = (sessions: LiveSession[]): boolean => sessions.some((s) => s.name === 'trusty' && s.state === 'attention' && s.attention?.reason === 'needs-trust');
    await untilValue('trusty waiting for trust', async () => ((await call(c, 'list', {})) as unknown as LiveSession[]), waiting);
    const shown = (await listing('trusty')).agentCommand;
    expect(shown).toMatchObject({ profile: 'shell', command: command('changed'), trusted: false, changed: true, refused: null, where: expect.stringContaining('session.json') as unknown });

    // Changed again after it was shown: approving what was shown approves nothing.
    setCommand(command('again'));
    const stale = await c.request('agent.trust', { session: 'trusty', hash: shown?.hash ?? 'x' });
    expect(stale).toMatchObject({ ok: false, code: 'conflict' });
    expect(stale.ok ? '' : stale.message).toContain(command('again'));
    expect(readFileSync(path.join(h.home, 'trust.json')).equals(trustBefore)).toBe(true);

    const now = (await listing('trusty')).agentCommand;
    expect(now).toMatchObject({ command: command('again'), trusted: false });
    expect(now?.hash).not.toBe(shown?.hash);
    const before = events.length;
    expect(await call(c, 'agent.trust', { session: 'trusty', hash: now?.hash ?? 'x' })).toEqual({ hash: now?.hash, command: command('again'), started: true });
    await waitEvent(events, 'trusty started', (e) => e.type === 'session.started' && e.name === 'trusty', before);
    await until('the approved command ran', () => existsSync(marker) && readFileSync(marker, 'utf8').includes('again'));
    expect(readFileSync(marker, 'utf8').trim()).toBe('again');
    expect((await listing('trusty')).agentCommand).toMatchObject({ trusted: true, changed: false });
    expect(h.workLog('trusty')).toContain(`TRUST APPROVED - agent command \`${command('again')}\``);
    // Asked again: already approved, and running, so nothing more is started.
    expect(await call(c, 'agent.trust', { session: 'trusty', hash: now?.hash ?? 'x' })).toMatchObject({ started: false });
  });

  it('a profile that runs its own program shows no agent command and has none to approve', async () => {
    expect((await listing('plain')).agentCommand).toBeNull();
    expect(await c.request('agent.trust', { session: 'plain', hash: 'sha256:0' })).toMatchObject({ ok: false, code: 'usage' });
  });
});
