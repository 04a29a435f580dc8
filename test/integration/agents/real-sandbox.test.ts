// The real Claude Code in a sandboxed session (real bubblewrap, `allowlist` network) under a real
// `mori up`, against the Messages API stand-in on loopback: its first turn reaches the stand-in through
// the session's proxy (its host is allowed because it is ANTHROPIC_BASE_URL) and not directly, its hooks
// alone move the session through working and back to waiting from inside the sandbox, and a SIGKILL of
// claude (found by the pid it has inside the sandbox) is resumed by its own id, the earlier turn in the
// next request. The real Codex's first turn the same way, its stand-in's host allowed in the settings
// (its base URL is in its config.toml, which Mori does not read). The CLIs come from
// test/support/agent-clis/install.sh's cache; absent → skipped.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpHarness } from '../../support/mori-up.js';
import { activities, killPanes, started } from '../../support/hook-calls.js';
import { codexEnv, installedCli, requestWith, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { startResponsesApi } from '../../support/stand-ins/responses-api.js';
import type { StandIn } from '../../support/stand-ins/loopback-server.js';
import { until } from '../../../testkit/until.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudePid, claudeReplies, claudeStatus, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { messageTexts, MessagesApiStandIn, type LoggedRequest } from '../../../testkit/messages-api.js';

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const bwrapWorks = ((): boolean => {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--proc', '/proc', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/** Claude Code takes seconds to start on a loaded 2-core machine, more behind the bridge; each step gets this long. */
const STEP_MS = 60_000;
const NAME = 'sbx';

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
let codexApi: StandIn | null = null;
afterEach(async () => {
  await codexApi?.close();
  codexApi = null;
  if (h) killPanes(h);
  const tmp = h?.tmp;
  try {
    h?.cleanup();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  h = null;
  await api?.stop();
  api = null;
});

/** The pid here of the process that knows itself as `inner` inside a pid namespace and runs claude's `id`. */
function outerPid(inner: number, id: string): number | null {
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const ns = /^NSpid:\s+([\d\s]+)$/m.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]?.trim().split(/\s+/) ?? [];
      if (ns.length > 1 && Number(ns.at(-1)) === inner && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(id)) return Number(d);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

const lastUserText = (r: LoggedRequest): string => messageTexts(r.body).filter((m) => m.role === 'user').at(-1)?.text ?? '';

describe.skipIf(bin === null || (!bwrapWorks && !process.env['CI']))(`Claude Code ${CLAUDE_CODE_PACKAGE} in a sandbox with an allowlist network`, () => {
  it('first turn through the proxy, hooks reporting from inside, a SIGKILL resumed by its own id with the earlier turn', async () => {
    const a = await MessagesApiStandIn.start({ defaultText: 'OK.' });
    api = a;
    a.enqueue({ text: 'Noted: the code word is PELICAN.' });
    const harness = new UpHarness('sbx-claude', { MORI_TEST_HOOKS_ONLY: '1' });
    h = harness;
    Object.assign(harness.env, claudeEnv(bin as string, a.url, path.join(harness.tmp, 'user-home')));
    const configDir = String(harness.env['CLAUDE_CONFIG_DIR']);
    seedClaudeConfig(configDir, harness.project);
    mkdirSync(harness.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(harness.home, 'settings.json'), JSON.stringify({ sandbox: { network: 'allowlist' } }));
    const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'claude', '--backend', 'tmux', '--sandbox', '--task', 'write the thing', '--json');
    expect(init.code, init.stderr).toBe(0);
    const u = harness.up();
    const id = (): string | null => (JSON.parse(readFileSync(path.join(harness.stateDir(NAME), 'session.json'), 'utf8')) as { agent: { sessionId: string | null } }).agent.sessionId;
    const why = (): string => `\n--- activities: ${activities(u).join(' ')}\n--- stderr: ${u.stderr()}\n--- screen:\n${(() => { try { return screen(harness, sessionJson(harness, NAME).id); } catch { return '(none)'; } })()}`;

    // Its network namespace has only its own loopback: a request at the stand-in came through the bridge and the proxy.
    await until('the first request', () => a.turns().length >= 1, why, STEP_MS);
    expect(lastUserText(a.turns()[0]!)).toContain('Task: write the thing');
    const agentId = id() as string;
    expect(agentId).toMatch(/^[0-9a-f-]{36}$/);
    // The hooks alone (no screen read) say working on the prompt and waiting at the turn's end.
    await until('waiting after the first turn', () => claudeReplies(configDir, harness.project, agentId) >= 1 && activities(u).includes('working') && activities(u).at(-1) === 'waiting', why, STEP_MS);
    await until('claude idle', () => claudeStatus(configDir, agentId) === 'idle', why, STEP_MS);

    // Its status file names it by its pid inside the sandbox; the pid here is another.
    const inner = claudePid(configDir, agentId) as number;
    const pid = outerPid(inner, agentId);
    expect(pid, `no process here knows itself as ${inner}`).not.toBeNull();
    expect(pid).not.toBe(inner);
    const before = a.turns().length;
    process.kill(pid as number, 'SIGKILL');
    await until('the resumed turn', () => a.turns().length > before, why, STEP_MS);
    const resumed = messageTexts(a.turns()[before]!.body);
    expect(resumed.map((m) => m.text).join('\n')).toContain('Task: write the thing');
    expect(resumed.filter((m) => m.role === 'assistant').map((m) => m.text)).toContain('Noted: the code word is PELICAN.');
    expect(id()).toBe(agentId);
    expect(started(u).length).toBeGreaterThanOrEqual(2);
    expect(harness.workLog(NAME)).toMatch(/SESSION RESUMED - [^\n]*resum/);
  }, 240_000);
});

const codex = installedCli('@openai/codex', '0.171.0', 'codex');

describe.skipIf('skip' in codex || (!bwrapWorks && !process.env['CI']))('Codex 0.171.0 in a sandbox with an allowlist network', () => {
  it("first turn through the proxy: the task reaches the stand-in, and its id is recorded", async () => {
    const a = await startResponsesApi();
    codexApi = a;
    const harness = new UpHarness('sbx-codex');
    h = harness;
    Object.assign(harness.env, codexEnv(a, harness.tmp, harness.project), { MORI_AGENT_BIN_CODEX: (codex as { bin: string }).bin });
    mkdirSync(harness.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(harness.home, 'settings.json'), JSON.stringify({ sandbox: { network: 'allowlist', allowedHosts: [`127.0.0.1:${a.port}`] } }));
    const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'codex', '--backend', 'tmux', '--sandbox', '--task', 'write the word pelican into notes.txt', '--json');
    expect(init.code, init.stderr).toBe(0);
    const u = harness.up();
    const why = (): string => `\n--- activities: ${activities(u).join(' ')}\n--- stderr: ${u.stderr()}\n--- screen:\n${(() => { try { return screen(harness, sessionJson(harness, NAME).id); } catch { return '(none)'; } })()}`;
    // Its own loopback only inside: the request came through the bridge and the proxy.
    await until('the task in a request', () => requestWith(a, ['pelican']), why, STEP_MS);
    await until('its session id in session.json', () => sessionJson(harness, NAME).agent.sessionId !== null, why, STEP_MS);
    expect(a.proxied).toEqual([]);
  }, 180_000);
});
