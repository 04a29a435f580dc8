// Approvals come only from the person: a real supervised agent (a shell session whose program is a
// script) under `mori up --daemon`, on the direct backend and on tmux, tries every approving way with
// Mori's variables stripped from its environment (`env -i`): `mori trust --yes`, a raw client on the
// control socket (checks.trust, session.init with a command, settings.set, daemon.stop,
// session.remove, session.rename), `mori init --command`, `mori rm`, `mori rename`, `mori remote
// add` with a ProxyCommand, a `setsid -f` escape, and `mori down`. Each is refused with where approvals are given,
// a flood of them too; the trust store, the settings and the registry are unchanged; the daemon
// answers on and records the refusal once in the session's work log. On tmux, where the agent
// outlives the daemon, `mori trust` is refused again with no daemon running. The same
// commands from this test process (outside every agent) then succeed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVALS_FROM_PERSON } from '../../main/daemon/approval-gate.js';
import { daemonAnswering } from '../../main/daemon-client/daemon-process.js';
import { MORI_BIN } from '../../testkit/mori-cli.js';
import { DEADLINE_MS, until, UpHarness } from '../support/mori-up.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const hasSetsid = spawnSync('setsid', ['--version'], { stdio: 'ignore' }).status === 0;

/** A raw control-socket client, as an agent could write one: each request's reply, one JSON line each. */
const RAW_CLIENT = `
import net from 'node:net';
const [sock, project] = process.argv.slice(2);
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
const listed = await ask('checks.list', { session: 'victim' });
const out = { list: await ask('list', {}), checksList: listed };
out.trust = await ask('checks.trust', { session: 'victim', hash: listed.value?.trust?.hash ?? 'x' });
out.init = await ask('session.init', { projectDir: project, name: 'evil', profile: 'shell', backend: 'direct', command: 'sh -c "touch evil"' });
out.settings = await ask('settings.set', { settings: { probeTargets: ['evil.example:443'], restart: { baseDelayMs: 100, maxDelayMs: 100, crashLoopCount: 100 } } });
out.stop = await ask('daemon.stop', { stopAgents: true });
out.remove = await ask('session.remove', { session: 'victim', deleteState: true });
out.rename = await ask('session.rename', { session: 'victim', name: 'renamed' });
// A flood: each answered, none approved, while a plain request is still answered among them.
const flood = Array.from({ length: 200 }, () => ask('checks.trust', { session: 'victim', hash: listed.value?.trust?.hash ?? 'x' }));
out.listDuringFlood = await ask('list', {});
out.flood = (await Promise.all(flood)).map((r) => r.code);
process.stdout.write(JSON.stringify(out));
s.end();
`;

function attackScript(h: UpHarness, results: string, client: string): string {
  const clean = `env -i PATH="$PATH" MORI_HOME='${h.home}' MORI_TMUX_SOCKET='${h.socketName}'`;
  const mori = `${clean} '${process.execPath}' '${MORI_BIN}'`;
  const out = (name: string) => path.join(results, name);
  const r = (name: string) => `> '${out(`${name}.out`)}' 2> '${out(`${name}.err`)}'; echo $? > '${out(`${name}.code`)}'`;
  const evilProject = path.join(h.tmp, 'evil-project');
  const escape = path.join(h.tmp, 'escape.sh');
  // Started in a new session and re-parented to init at once; its stdin is still the agent's terminal.
  writeFileSync(escape, `${mori} trust victim --yes --json ${r('setsid-run')}\nmv '${out('setsid-run.code')}' '${out('setsid.code')}'\n`);
  return [
    `mkdir -p '${evilProject}'`,
    `${mori} trust victim --yes --json ${r('trust')}`,
    `${clean} '${process.execPath}' '${client}' '${path.join(h.home, 'mori.sock')}' '${evilProject}' ${r('raw')}`,
    `${mori} init '${evilProject}' --name evil2 --agent shell --command 'sh -c "touch evil"' --backend direct --json ${r('init')}`,
    `${mori} remote add evil me@evil.example --ssh-option '-oProxyCommand=touch ${path.join(h.tmp, 'proxied')}' --json ${r('remote')}`,
    ...(hasSetsid ? [`setsid -f sh '${escape}'`, `while [ ! -f '${out('setsid.code')}' ]; do sleep 0.1; done`] : []),
    `${mori} rm victim --yes --delete-state --json ${r('rm')}`,
    `${mori} rename victim renamed --json ${r('rename')}`,
    `${mori} ls --json ${r('ls')}`,
    `${mori} down --json ${r('down')}`,
    `echo done > '${out('done')}'`,
    // Asked again once the daemon is gone (tmux agents outlive it): the CLI finds the agent on its own.
    `while [ ! -f '${out('go')}' ]; do sleep 0.1; done`,
    `${mori} trust victim --yes --json ${r('after-down')}`,
    'exec sleep 600',
  ].join('\n');
}

const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');

describe.each([
  ['direct', true],
  ['tmux', hasTmux],
] as const)('approvals asked from inside a supervised agent (%s backend)', (backend, available) => {
  // Its waits add up to more than the default 30 s on a loaded runner (the agent alone may take 50 s).
  it.runIf(available)('are refused with where approvals are given, change nothing, and the same requests from the person succeed', { timeout: 150_000 }, async () => {
    h = new UpHarness(`approvals-${backend}`);
    const results = path.join(h.tmp, 'results');
    const client = path.join(h.tmp, 'client.mjs');
    const script = path.join(h.tmp, 'attack.sh');
    const marker = path.join(h.tmp, 'victim-ran');
    spawnSync('mkdir', ['-p', results]);
    writeFileSync(client, RAW_CLIENT);
    writeFileSync(script, attackScript(h, results, client));

    // The victim: a session whose checks hold a command nobody approved.
    const victim = h.mori('init', h.project, '--name', 'victim', '--agent', 'shell', '--command', 'sleep 600', '--backend', backend);
    expect(victim.code, victim.stderr).toBe(0);
    writeFileSync(path.join(h.stateDir('victim'), 'environment.md'), `## Setup\n- Test command: \`touch ${marker}\`\n`);
    const attacker = h.mori('init', h.project, '--name', 'attacker', '--agent', 'shell', '--command', `sh ${script}`, '--backend', backend);
    expect(attacker.code, attacker.stderr).toBe(0);
    const trustFile = path.join(h.home, 'trust.json');
    const trustBefore = readFileSync(trustFile);
    const settingsFile = path.join(h.home, 'settings.json');
    const settingsBefore = read(settingsFile);
    const registry = path.join(h.home, 'registry.json');
    const registryBefore = read(registry);

    const up = h.mori('up', '--daemon', 'attacker');
    expect(up.code, up.stderr).toBe(0);
    await until('the agent tried everything', () => existsSync(path.join(results, 'done')), () => readdirSync(results).join(', '), DEADLINE_MS * 2);

    const refused = (name: string) => {
      expect(read(path.join(results, `${name}.code`)).trim(), `${name}: ${read(path.join(results, `${name}.err`))}`).toBe('1');
      const json = JSON.parse(read(path.join(results, `${name}.out`))) as { ok: boolean; code: string; message: string };
      expect(json.ok).toBe(false);
      expect(json.code).toBe('forbidden');
      expect(json.message).toContain(APPROVALS_FROM_PERSON);
      return json.message;
    };
    // The refusal names its evidence: the attacker's session, or (when its ancestor is read before the
    // session knows its pid) the Mori terminal the ancestor was started in.
    expect(refused('trust')).toMatch(/mori trust victim.*inside a supervised agent.*(session "attacker"|started in a Mori terminal)/);
    expect(refused('init')).toMatch(/mori init --command/);
    expect(refused('down')).toMatch(/stopping the Mori supervisor/);
    expect(refused('remote')).toMatch(/mori remote add evil.*ssh runs its options/);
    expect(existsSync(path.join(h.home, 'remotes.json'))).toBe(false);
    expect(refused('rm')).toMatch(/mori rm/);
    expect(refused('rename')).toMatch(/mori rename/);
    if (hasSetsid) {
      expect(read(path.join(results, 'setsid.code')).trim(), read(path.join(results, 'setsid-run.err'))).toBe('1');
      const json = JSON.parse(read(path.join(results, 'setsid-run.out'))) as { code: string; message: string };
      expect(json.code).toBe('forbidden');
      expect(json.message).toMatch(/terminal of session "attacker"/);
    }

    const raw = JSON.parse(read(path.join(results, 'raw.out'))) as Record<string, { ok: boolean; code?: string; message?: string }>;
    // What an agent needs still works from inside: listing sessions, reading checks.
    expect(raw['list']?.ok).toBe(true);
    expect(raw['checksList']?.ok).toBe(true);
    for (const m of ['trust', 'init', 'settings', 'stop', 'remove', 'rename']) {
      expect(raw[m]?.ok, `${m}: ${JSON.stringify(raw[m])}`).toBe(false);
      expect(raw[m]?.code).toBe('forbidden');
      expect(raw[m]?.message).toContain(APPROVALS_FROM_PERSON);
    }
    expect(read(path.join(results, 'ls.code')).trim()).toBe('0');
    expect(raw['listDuringFlood']?.ok).toBe(true);
    expect(new Set(raw['flood'] as unknown as string[])).toEqual(new Set(['forbidden']));

    // Nothing changed: the trust store byte for byte, the settings, no new session, nothing ran.
    expect(readFileSync(trustFile).equals(trustBefore)).toBe(true);
    expect(read(settingsFile)).toBe(settingsBefore);
    expect(read(registry)).toBe(registryBefore);
    expect(existsSync(path.join(h.tmp, 'evil-project', '.mori'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(path.join(h.tmp, 'proxied'))).toBe(false);
    expect(existsSync(h.stateDir('victim'))).toBe(true);
    // The daemon answers on, and its log says what it refused and why.
    expect(await daemonAnswering(h.home)).not.toBeNull();
    const log = read(path.join(h.home, 'logs', 'daemon.err.log'));
    for (const m of ['checks.trust', 'session.init', 'settings.set', 'daemon.stop', 'session.remove', 'session.rename']) expect(log).toContain(`refused ${m}:`);
    // And the session's work log, where the person reads what it did.
    expect(h.workLog('attacker')).toMatch(/APPROVAL REFUSED - checks\.trust asked from inside this session's agent/);
    expect(h.workLog('attacker').match(/APPROVAL REFUSED - checks\.trust/g)).toHaveLength(1);

    // The person, outside every agent: the same approvals go through.
    const trust = h.mori('trust', 'victim', '--yes', '--json');
    expect(trust.code, trust.stderr).toBe(0);
    expect(readFileSync(trustFile).equals(trustBefore)).toBe(false);
    const verify = h.mori('verify', 'victim');
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const evil = path.join(h.tmp, 'evil-project');
    const init = h.mori('init', evil, '--name', 'mine', '--agent', 'shell', '--command', 'sleep 1', '--backend', 'direct');
    expect(init.code, init.stderr).toBe(0);
    const down = h.mori('down', '--json');
    expect(down.code, down.stderr).toBe(0);
    expect(await daemonAnswering(h.home)).toBeNull();

    if (backend === 'tmux') {
      // No daemon now, the agent still runs in its pane, and the victim's list changed.
      writeFileSync(path.join(h.stateDir('victim'), 'environment.md'), `## Setup\n- Test command: \`touch ${marker}-again\`\n`);
      const approved = readFileSync(trustFile);
      writeFileSync(path.join(results, 'go'), '');
      await until('the agent asked again', () => existsSync(path.join(results, 'after-down.code')));
      expect(refused('after-down')).toMatch(/session "attacker"/);
      expect(readFileSync(trustFile).equals(approved)).toBe(true);
    }
    // Every way is a Node process (the CLI, the raw client) on two shared cores: the agent takes tens of seconds to try them all.
  });
});
