// Notices off the machine (DESIGN.md §13 "Notices off the machine") under a real `mori up`, the fake
// agent behind the claude and codex profiles, against real HTTP servers on loopback: every transition
// (needs input, verification failed, crash loop, usage limit and its resume, handed off, finished)
// reaches an ntfy and a webhook target once each in its format, agent-written text escaped; the
// tokens in the targets' URLs stay in the 0600 settings.json, never in `mori notify ls` or the log; a
// target that is down is retried, then given up with one log line; and adding, removing or testing a
// target is refused from inside a supervised agent.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../common/ipc.js';
import { APPROVALS_FROM_PERSON } from '../../../main/daemon/approval-gate.js';
import { MORI_BIN, runMoriAsync, type MoriRun } from '../../../testkit/mori-cli.js';
import { until } from '../../../testkit/until.js';
import { DEADLINE_MS, FAKE_AGENT, hasEvent, UpHarness } from '../../support/mori-up.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that records every request and answers each with `status`. */
async function recorder(status = 200): Promise<{ port: number; got: Received[]; close: () => Promise<void> }> {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(status).end(status === 200 ? '{"id":"x"}' : 'down');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as AddressInfo).port, got, close: () => new Promise((r) => server.close(() => r())) };
}

let h: UpHarness | null = null;
const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  h?.cleanup();
  h = null;
  for (const close of servers.splice(0)) await close();
});

const TOPIC_SECRET = 'mori-topic-s3cr3tZ';
const HOOK_SECRETS = ['hookpass', 't0k3nQ'];

/** An ntfy request's title, as ntfy reads it (RFC 2047 encoded-words decoded). */
const ntfyTitle = (r: Received): string => {
  const t = String(r.headers['title'] ?? '');
  const m = /^=\?UTF-8\?B\?(.*)\?=$/.exec(t);
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : t;
};
/** `mori …` run without blocking this process: the recording servers answer meanwhile. */
const mori = (...args: string[]): Promise<MoriRun> => runMoriAsync(args, { home: h!.home, cwd: h!.project, env: h!.env });
const webhook = (r: Received): { kind: string; title: string; body: string; sessions: string[] } => JSON.parse(r.body) as never;

it('every transition reaches an ntfy and a webhook target once, in their formats, agent text escaped, the tokens never shown', { timeout: 180_000 }, async () => {
  const server = await recorder();
  servers.push(server.close);
  h = new UpHarness('notices', { MORI_AGENT_BIN_CODEX: FAKE_AGENT, MORI_LIMIT_JITTER_MS: '500' });
  h.env['CODEX_HOME'] = path.join(h.tmp, 'codex');
  mkdirSync(h.env['CODEX_HOME'], { recursive: true });
  const base = `http://127.0.0.1:${server.port}`;
  // No daemon yet: the CLI writes settings.json itself.
  const addNtfy = h.mori('notify', 'add', 'ntfy', `${base}/${TOPIC_SECRET}`, '--on', 'all');
  expect(addNtfy.code, addNtfy.stderr).toBe(0);
  const addHook = h.mori('notify', 'add', 'webhook', `http://notifier:hookpass@127.0.0.1:${server.port}/hook?token=t0k3nQ`, '--on', 'all', '--json');
  expect(addHook.code, addHook.stderr).toBe(0);
  const settingsFile = path.join(h.home, 'settings.json');
  expect(statSync(settingsFile).mode & 0o777).toBe(0o600);
  expect(readFileSync(settingsFile, 'utf8')).toContain(TOPIC_SECRET);
  const ls = h.mori('notify', 'ls');
  expect(ls.stdout).toContain(`${base}/mor…`);
  for (const out of [addNtfy.stdout, addHook.stdout, ls.stdout]) for (const secret of [TOPIC_SECRET, ...HOOK_SECRETS]) expect(out).not.toContain(secret);

  h.init('a', 'direct');
  // A check named by the agent (environment.md is its to write), with a terminal's control sequences
  // in its name; it fails when the session is verified before its resume after the usage limit.
  writeFileSync(path.join(h.stateDir('a'), 'environment.md'), '## Checks\n- file: gone\x1b[2J\x1b]0;owned\x07.txt\n');
  expect(h.mori('init', h.project, '--name', 'b', '--agent', 'shell', '--command', 'sh -c "exit 3"', '--backend', 'direct').code).toBe(0);
  const u = h.up(['a']);
  const why = (): string => `${u.stderr()}\n${JSON.stringify(server.got.map((r) => [r.path, r.headers['title'], r.body]))}`;
  await until('the agent to wait', () => hasEvent(u, 'session.activity', { to: 'waiting' }), why, DEADLINE_MS);
  // `mori ls` through the daemon shows the targets masked too.
  const lsUp = await mori('notify', 'ls', '--json');
  expect(lsUp.stdout).toContain('hook');
  for (const secret of [TOPIC_SECRET, ...HOOK_SECRETS]) expect(lsUp.stdout).not.toContain(secret);

  const ntfy = () => server.got.filter((r) => r.path.startsWith(`/${TOPIC_SECRET}`));
  const hooks = () => server.got.filter((r) => r.path.startsWith('/hook'));
  const bothGot = (kind: string, title: RegExp) => () =>
    ntfy().some((r) => title.test(ntfyTitle(r))) && hooks().some((r) => webhook(r).kind === kind && title.test(webhook(r).title));

  expect((await mori('send', 'a', 'ask')).code).toBe(0);
  await until('needs input told', bothGot('needs-input', /^a needs input$/), why, DEADLINE_MS);
  expect((await mori('send', 'a', '1')).code).toBe(0);

  expect((await mori('start', 'b')).code).toBe(0);
  await until('crash loop told', bothGot('crash-loop', /^b is in a crash loop$/), why, DEADLINE_MS * 2);

  const resetSec = Math.ceil(Date.now() / 1000) + 6;
  expect((await mori('send', 'a', `limit:Claude AI usage limit reached|${resetSec}`)).code).toBe(0);
  await until('usage limit told', bothGot('usage-limit', /^a: usage limit, resumes at/), why, DEADLINE_MS);
  await until('its resume told', bothGot('usage-limit', /^a resumed after its usage limit$/), why, DEADLINE_MS * 2);
  // The resume verified first: the agent's check failed.
  await until('verification failed told', bothGot('verify-failed', /^a: verification failed$/), why, DEADLINE_MS);

  const handoff = await mori('handoff', 'a', '--to', 'codex', '--reason', 'by hand');
  expect(handoff.code, handoff.stderr).toBe(0);
  await until('the hand-off told', bothGot('handed-off', /^a continues with codex$/), why, DEADLINE_MS);
  await until('codex started', () => hasEvent(u, 'session.started', { name: 'a', launch: 'fresh' }), why, DEADLINE_MS);

  expect((await mori('send', 'a', 'exit:0')).code).toBe(0);
  await until('finished told', bothGot('finished', /^a finished$/), why, DEADLINE_MS);
  // Past the coalescing window (3 s) and then some: nothing told twice arrives late.
  await new Promise((r) => setTimeout(r, 5_000));

  const titles = ntfy().map(ntfyTitle);
  expect(titles.sort(), why()).toEqual(
    ['a needs input', 'a: verification failed', 'b is in a crash loop', 'a resumed after its usage limit', 'a continues with codex', 'a finished', titles.find((t) => t.startsWith('a: usage limit'))].sort(),
  );
  expect(hooks().map((r) => webhook(r).kind).sort()).toEqual(['crash-loop', 'finished', 'handed-off', 'needs-input', 'usage-limit', 'usage-limit', 'verify-failed']);
  // ntfy's publish format: the body POSTed to the topic, title, priority and tags as headers.
  const needs = ntfy().find((r) => ntfyTitle(r) === 'a needs input')!;
  expect(needs.headers['priority']).toBe('4');
  expect(needs.headers['tags']).toBe('question,mori');
  expect(needs.body).toBe('The agent is waiting for an answer.');
  // A usage limit's line from the agent's screen stays on the machine: the title says when it resumes.
  const limit = hooks().find((r) => webhook(r).title.startsWith('a: usage limit'))!;
  expect(webhook(limit).body).toBe('');
  // The webhook's JSON: the kind, the words, the sessions; its userinfo sent as the URL says (basic auth), not in the body.
  expect(webhook(hooks()[0]!)).toMatchObject({ source: 'mori', sessions: [expect.any(String)] });
  // The agent's check name is shown escaped, never as the control characters it holds.
  const failed = ntfy().find((r) => ntfyTitle(r) === 'a: verification failed')!;
  expect(failed.body).toContain('gone\\e[2J\\e]0;owned\\x07.txt');
  for (const r of server.got) expect(r.body + JSON.stringify(r.headers)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  expect(JSON.stringify(hooks().map((r) => webhook(r)))).not.toMatch(/\\u001b|\\u0007/);
  // No secret in the daemon's words.
  for (const secret of [TOPIC_SECRET, ...HOOK_SECRETS]) expect(u.stderr()).not.toContain(secret);
});

it('a target that is down is retried with backoff, then given up with one log line naming it masked', { timeout: 120_000 }, async () => {
  const down = await recorder(503);
  servers.push(down.close);
  h = new UpHarness('notices-down', { MORI_NOTIFY_RETRY_BASE_MS: '100' });
  expect(h.mori('notify', 'add', 'ntfy', `http://127.0.0.1:${down.port}/${TOPIC_SECRET}`).code).toBe(0);
  h.init('d', 'direct');
  const u = h.up(['d']);
  await until('the agent to wait', () => hasEvent(u, 'session.activity', { to: 'waiting' }), u.stderr, DEADLINE_MS);
  expect((await mori('send', 'd', 'ask')).code).toBe(0);
  const gaveUp = (): string[] => u.stderr().split('\n').filter((l) => /notice/.test(l));
  await until('given up', () => gaveUp().length > 0, u.stderr, DEADLINE_MS);
  // 5 tries, 100 ms then ×4 between them: 100, 400, 1600, 6400 ms.
  expect(down.got).toHaveLength(5);
  await new Promise((r) => setTimeout(r, 2_000));
  expect(gaveUp()).toEqual([`mori: a notice to ntfy http://127.0.0.1:${down.port}/mor… was not delivered after 5 tries (HTTP 503); given up`]);
  expect(down.got).toHaveLength(5);
  const test = await mori('notify', 'test', '--json');
  expect(test.code).toBe(1);
  expect(JSON.parse(test.stdout)).toMatchObject({ ok: false, results: [{ ok: false, detail: 'HTTP 503' }] });
  expect(u.stderr() + test.stdout).not.toContain(TOPIC_SECRET);
});

/** A raw control-socket client, as an agent could write one: the replies to its requests. */
const RAW_CLIENT = `
import net from 'node:net';
const [sock] = process.argv.slice(2);
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
await ask('hello', { protocol: ${PROTOCOL_VERSION} });
const out = [];
out.push(await ask('notify.add', { kind: 'webhook', url: 'http://127.0.0.1:9/agent-chosen' }));
out.push(await ask('notify.remove', { target: '1' }));
out.push(await ask('notify.test', {}));
const got = await ask('settings.get', {});
out.push(got);
process.stdout.write(JSON.stringify(out));
s.end();
`;

it('adding, removing or testing a target is refused from inside an agent, through the CLI and a raw client; settings.json unchanged', { timeout: 120_000 }, async () => {
  h = new UpHarness('notices-refused');
  expect(h.mori('notify', 'add', 'ntfy', `http://127.0.0.1:9/${TOPIC_SECRET}`).code).toBe(0);
  const settingsFile = path.join(h.home, 'settings.json');
  const before = readFileSync(settingsFile, 'utf8');
  const results = path.join(h.tmp, 'results');
  mkdirSync(results);
  const client = path.join(h.tmp, 'client.mjs');
  writeFileSync(client, RAW_CLIENT);
  const clean = `env -i PATH="$PATH" MORI_HOME='${h.home}'`;
  const mori = `${clean} '${process.execPath}' '${MORI_BIN}'`;
  const out = (name: string) => `> '${path.join(results, `${name}.out`)}' 2> '${path.join(results, `${name}.err`)}'`;
  const script = path.join(h.tmp, 'attack.sh');
  writeFileSync(
    script,
    [
      `${mori} notify add webhook http://127.0.0.1:9/agent-chosen --json ${out('add')}`,
      `${mori} notify rm 1 --json ${out('rm')}`,
      `${mori} notify test --json ${out('test')}`,
      `${mori} notify ls --json ${out('ls')}`,
      `${clean} '${process.execPath}' '${client}' '${path.join(h.home, 'mori.sock')}' ${out('raw')}`,
      `echo done > '${path.join(results, 'done')}'`,
      'exec sleep 600',
    ].join('\n'),
  );
  expect(h.mori('init', h.project, '--name', 'attacker', '--agent', 'shell', '--command', `sh ${script}`, '--backend', 'direct').code).toBe(0);
  const up = h.mori('up', '--daemon', 'attacker');
  expect(up.code, up.stderr).toBe(0);
  const read = (name: string): string => {
    try {
      return readFileSync(path.join(results, name), 'utf8');
    } catch {
      return '';
    }
  };
  await until('the agent tried', () => read('done') !== '', () => read('add.err') + read('raw.err'), DEADLINE_MS * 2);
  for (const name of ['add', 'rm', 'test']) {
    const reply = JSON.parse(read(`${name}.out`)) as { ok: boolean; code: string; message: string };
    expect(reply, name).toMatchObject({ ok: false, code: 'forbidden' });
    expect(reply.message, name).toContain(APPROVALS_FROM_PERSON);
  }
  const raw = JSON.parse(read('raw.out')) as Array<{ ok: boolean; code?: string; message?: string; value?: { notifyTargets: Array<{ url: string }> } }>;
  expect(raw.slice(0, 3).map((r) => [r.ok, r.code])).toEqual([[false, 'forbidden'], [false, 'forbidden'], [false, 'forbidden']]);
  expect(raw[0]!.message).toMatch(/adding a notice target is refused from inside a supervised agent/);
  // What an agent may read shows the target masked, as `mori notify ls` does.
  expect(raw[3]!.ok).toBe(true);
  expect(raw[3]!.value!.notifyTargets.map((t) => t.url)).toEqual(['http://127.0.0.1:9/mor…']);
  expect(read('ls.out')).toContain('http://127.0.0.1:9/mor…');
  expect(read('ls.out') + read('raw.out')).not.toContain(TOPIC_SECRET);
  expect(readFileSync(settingsFile, 'utf8')).toBe(before);
});
