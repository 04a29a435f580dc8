// Hand-off to another agent (DESIGN.md §5, "Hand-off to another agent") under a real `mori up
// --daemon`, the fake agent behind both the claude and the codex profiles: `mori handoff S --to codex`
// ends the claude agent, keeps its id in previousIds, starts codex without that id and with the full
// resume prompt naming who worked before it and why, writes one SESSION HANDED OFF entry and types
// nothing. From inside a supervised agent (its CLI, and a raw client on the control socket) the same
// hand-off is refused and changes nothing.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../../common/ipc.js';
import { APPROVALS_FROM_PERSON } from '../../../../main/daemon/approval-gate.js';
import { pidAlive } from '../../../../main/os/pid-alive.js';
import { MORI_BIN } from '../../../../testkit/mori-cli.js';
import { until } from '../../../../testkit/until.js';
import { DEADLINE_MS, FAKE_AGENT, UpHarness } from '../../../support/mori-up.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

const STATE = `# Session State

## Current Task
- write the parser
- Files touched: src/parser.ts

## Next Steps
1. handle escaped quotes

## Decisions Made
- tokens are kept as byte offsets
`;

/** One line of the fake agent's record (a start has its argv and prompt). */
interface AgentRecord {
  event: string;
  pid: number;
  argv: string[];
  sessionId: string | null;
  resumeId: string | null;
  prompt: string | null;
}

/** Both profiles run the fake agent; codex's home is the test's, so no real rollout is read. */
function harness(prefix: string): UpHarness {
  const made = new UpHarness(prefix, { MORI_AGENT_BIN_CODEX: FAKE_AGENT });
  made.env['CODEX_HOME'] = path.join(made.tmp, 'codex');
  mkdirSync(made.env['CODEX_HOME'], { recursive: true });
  return made;
}

const records = (u: UpHarness): AgentRecord[] =>
  readFileSync(u.record, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AgentRecord);

const sessionJson = (u: UpHarness, name: string) =>
  JSON.parse(readFileSync(path.join(u.stateDir(name), 'session.json'), 'utf8')) as { id: string; name: string; agent: { profile: string; sessionId: string | null; previousIds: string[] } };

it('mori handoff --to codex: claude ended with its id kept, codex started fresh with the resume prompt naming claude and why; nothing typed', { timeout: 90_000 }, async () => {
  h = harness('handoff');
  h.init('ho', 'direct');
  writeFileSync(path.join(h.stateDir('ho'), 'session_state.md'), STATE);
  const up = h.mori('up', '--daemon', 'ho');
  expect(up.code, up.stderr).toBe(0);
  await until('the claude agent', () => h!.starts().length === 1 && sessionJson(h!, 'ho').agent.sessionId !== null, () => h!.workLog('ho'), DEADLINE_MS);
  const before = sessionJson(h, 'ho');
  const claudeId = before.agent.sessionId!;
  const claudePid = h.starts()[0]!.pid;

  const r = h.mori('handoff', 'ho', '--to', 'codex', '--reason', 'usage limit', '--json');
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect((JSON.parse(r.stdout) as { session: { profile: string } }).session.profile).toBe('codex');
  await until('the codex agent', () => h!.starts().length === 2, () => h!.workLog('ho'), DEADLINE_MS);
  const codex = records(h).filter((x) => x.event === 'start')[1]!;
  // The codex profile's own command line, not claude's: no session id of claude's, no --resume.
  expect(codex.argv).toContain('--no-daemon');
  expect(codex.argv).not.toContain(claudeId);
  expect(codex.resumeId).toBeNull();
  expect(codex.sessionId).toBeNull();
  for (const part of ['Claude Code worked on it before you', `its conversation ${claudeId} is kept`, 'handed over because: usage limit', 'Current task:', 'write the parser', 'Next steps:', 'handle escaped quotes', 'src/parser.ts', 'Decisions (do not re-argue):']) {
    expect(codex.prompt, part).toContain(part);
  }
  await until('the claude agent ended', () => !pidAlive(claudePid), () => `pid ${claudePid} alive`, DEADLINE_MS);

  const after = sessionJson(h, 'ho');
  expect(after.id).toBe(before.id);
  expect(after.name).toBe('ho');
  expect(after.agent.profile).toBe('codex');
  expect(after.agent.previousIds).toEqual([claudeId]);
  expect(after.agent.sessionId).not.toBe(claudeId);
  const log = h.workLog('ho');
  expect(log.match(/SESSION HANDED OFF - /g)).toHaveLength(1);
  expect(log).toContain(`SESSION HANDED OFF - claude → codex (usage limit); claude session ${claudeId} kept in previousIds`);
  expect(log).toMatch(/- SESSION HANDED OFF - [^\n]*\n\n## [^\n]*\n- SESSION STARTED - agent codex \(agent started fresh with the resume prompt\)/);
  expect(log).not.toMatch(/- SESSION RESUMED/);
  // The prompt went on the command line, once: nothing was typed into either agent.
  expect(records(h).filter((x) => x.event === 'input')).toEqual([]);
  expect(h.mori('status', 'ho').stdout).toMatch(/codex/);

  // Handing it to the profile it runs is refused, and starts nothing.
  const again = h.mori('handoff', 'ho', '--to', 'codex', '--json');
  expect(again.code).not.toBe(0);
  expect(again.stdout).toMatch(/already runs Codex/);
  expect(h.starts()).toHaveLength(2);
});

/** A raw control-socket client, as an agent could write one: the reply to one hand-off request. */
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
process.stdout.write(JSON.stringify(await ask('session.handoff', { session: 'victim', profile: 'codex', reason: 'the agent asked' })));
s.end();
`;

it('is refused from inside a supervised agent, through the CLI and a raw client, and changes nothing', { timeout: 90_000 }, async () => {
  h = harness('handoff-refused');
  h.init('victim', 'direct');
  const results = path.join(h.tmp, 'results');
  mkdirSync(results);
  const client = path.join(h.tmp, 'client.mjs');
  writeFileSync(client, RAW_CLIENT);
  const clean = `env -i PATH="$PATH" MORI_HOME='${h.home}'`;
  const out = (name: string) => `> '${path.join(results, `${name}.out`)}' 2> '${path.join(results, `${name}.err`)}'`;
  const script = path.join(h.tmp, 'attack.sh');
  writeFileSync(
    script,
    [
      `${clean} '${process.execPath}' '${MORI_BIN}' handoff victim --to codex --json ${out('cli')}`,
      `${clean} '${process.execPath}' '${client}' '${path.join(h.home, 'mori.sock')}' ${out('raw')}`,
      `echo done > '${path.join(results, 'done')}'`,
      'exec sleep 600',
    ].join('\n'),
  );
  expect(h.mori('init', h.project, '--name', 'attacker', '--agent', 'shell', '--command', `sh ${script}`, '--backend', 'direct').code).toBe(0);
  const up = h.mori('up', '--daemon', 'victim', 'attacker');
  expect(up.code, up.stderr).toBe(0);
  const read = (name: string): string => {
    try {
      return readFileSync(path.join(results, name), 'utf8');
    } catch {
      return '';
    }
  };
  await until('the agent tried', () => read('done') !== '', () => read('cli.err') + read('raw.err'), DEADLINE_MS * 2);
  await until('the victim runs', () => h!.starts().length === 1, () => h!.workLog('victim'), DEADLINE_MS);

  for (const name of ['cli', 'raw']) {
    const reply = JSON.parse(read(`${name}.out`)) as { ok: boolean; code: string; message: string };
    expect(reply.ok, name).toBe(false);
    expect(reply.code, name).toBe('forbidden');
    expect(reply.message, name).toContain(APPROVALS_FROM_PERSON);
  }
  expect(read('raw.out')).toMatch(/handing a session to another agent/);
  expect(read('cli.out')).toMatch(/mori handoff victim/);
  // Nothing moved: claude still, one agent started, no hand-off written.
  expect(sessionJson(h, 'victim').agent.profile).toBe('claude');
  expect(h.starts()).toHaveLength(1);
  expect(h.workLog('victim')).not.toMatch(/HANDED OFF/);
  expect(h.workLog('attacker')).toMatch(/APPROVAL REFUSED - session\.handoff asked from inside this session's agent/);
});

it('onUsageLimit=handoff:codex: at a usage limit the session continues with codex at once, the reset named; wait (the default) waits', { timeout: 90_000 }, async () => {
  h = harness('handoff-limit');
  h.init('lim', 'direct');
  h.init('waits', 'direct');
  writeFileSync(path.join(h.stateDir('lim'), 'session_state.md'), STATE);
  const set = h.mori('set', 'lim', 'onUsageLimit=handoff:codex');
  expect(set.code, set.stderr).toBe(0);
  expect(set.stdout).toContain('at a usage limit handoff:codex');
  expect(h.mori('set', 'lim', 'onUsageLimit=handoff:shell').code).toBe(2);
  const up = h.mori('up', '--daemon', 'lim', 'waits');
  expect(up.code, up.stderr).toBe(0);
  await until('both claude agents', () => h!.starts().length === 2 && ['lim', 'waits'].every((n) => sessionJson(h!, n).agent.sessionId !== null), () => h!.workLog('lim'), DEADLINE_MS);
  const claudeId = sessionJson(h, 'lim').agent.sessionId!;
  // Claude's words, the reset an hour ahead (UTC): the session would wait an hour.
  const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60 * 60_000);
  const hh = reset.getUTCHours();
  const clock = `${((hh + 11) % 12) + 1}:${String(reset.getUTCMinutes()).padStart(2, '0')}${hh < 12 ? 'am' : 'pm'}`;
  for (const name of ['lim', 'waits']) expect(h.mori('send', name, `limit:You've hit your session limit · resets ${clock} (UTC)`).code).toBe(0);

  await until('the codex agent', () => h!.starts().length === 3, () => h!.workLog('lim'), DEADLINE_MS);
  const codex = records(h).filter((x) => x.event === 'start')[2]!;
  expect(codex.argv).toContain('--no-daemon');
  for (const part of ['Claude Code worked on it before you', 'handed over because: usage limit reached, resets', 'handle escaped quotes', 'src/parser.ts']) expect(codex.prompt, part).toContain(part);
  expect(sessionJson(h, 'lim').agent).toMatchObject({ profile: 'codex', previousIds: [claudeId] });
  await until('the hand-off logged', () => /SESSION HANDED OFF - claude → codex \(usage limit reached, resets /.test(h!.workLog('lim')), () => h!.workLog('lim'), DEADLINE_MS);
  expect(h.workLog('lim').match(/- SESSION HANDED OFF/g)).toHaveLength(1);
  // The session on the default waits for its reset with claude.
  await until('waits limited', () => /SESSION LIMITED/.test(h!.workLog('waits')), () => h!.workLog('waits'), DEADLINE_MS);
  expect(sessionJson(h, 'waits').agent.profile).toBe('claude');
  expect(h.workLog('waits')).not.toMatch(/HANDED OFF/);
  expect(h.starts()).toHaveLength(3);
});
