// The real Codex, Gemini CLI and opencode in a sandboxed session (real bubblewrap, `allowlist`
// network, the stand-in's loopback host allowed in the settings) under a real `mori up`: each CLI's
// first turn reaches its stand-in through the session's proxy (inside, its network namespace has only
// its own loopback) and Mori records the CLI's own session id; after a SIGKILL of the agent's process
// group the relaunch, sandboxed again, resumes that id and its next request carries the earlier turn.
// And the real Claude Code's usage limit waited out in the sandbox (test/support/real-limit-round-trip.ts).
// The CLIs come from test/support/agent-clis/install.sh's cache; absent → skipped.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { activities, killPanes, started } from '../../support/hook-calls.js';
import { codexEnv, geminiEnv, installedCli, opencodeEnv, requestsSummary, requestWith, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { startResponsesApi } from '../../support/stand-ins/responses-api.js';
import { startGeminiApi } from '../../support/stand-ins/gemini-api.js';
import type { StandIn } from '../../support/stand-ins/loopback-server.js';
import { until } from '../../../testkit/until.js';
import { messageTexts, MessagesApiStandIn } from '../../../testkit/messages-api.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudeGatewayToken, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';

const bwrapWorks = ((): boolean => {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--proc', '/proc', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const noSandbox = !bwrapWorks && !process.env['CI'];
const NAME = 'sbx';
const TASK = 'write the word pelican into notes.txt';
/** A word only the task holds, so a request carrying it carries the first turn. */
const TASK_WORD = 'pelican';
/** Every Responses/Gemini stand-in answer starts so: a request holding it carries an earlier answer. */
const REPLY = 'stand-in reply';
/** A CLI start on a loaded 2-core machine behind the bridge: Gemini CLI alone takes ~15 s to its first request. */
const STEP_MS = DEADLINE_MS * 2;
/** opencode's first start in a fresh data dir takes over a minute before its first request (real-opencode.test.ts). */
const OPENCODE_START_MS = DEADLINE_MS * 6;

let h: UpHarness | null = null;
let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  if (h) killPanes(h);
  const tmp = h?.tmp;
  try {
    h?.cleanup();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  h = null;
  await stop?.();
  stop = null;
});

/** A harness whose sandboxed session `NAME` runs `profile` from `bin` with `env`, the stand-in's port allowed. */
function sandboxed(label: string, profile: string, bin: string, port: number, env: (harness: UpHarness) => Record<string, string | undefined>): { harness: UpHarness; u: Up; why: () => string } {
  const harness = new UpHarness(`sbx-${label}`);
  h = harness;
  Object.assign(harness.env, env(harness), { [`MORI_AGENT_BIN_${profile.toUpperCase()}`]: bin });
  mkdirSync(harness.home, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(harness.home, 'settings.json'), JSON.stringify({ sandbox: { network: 'allowlist', allowedHosts: [`127.0.0.1:${port}`] } }));
  const init = harness.mori('init', harness.project, '--name', NAME, '--agent', profile, '--backend', 'tmux', '--sandbox', '--task', TASK, '--json');
  expect(init.code, init.stderr).toBe(0);
  const u = harness.up();
  const why = (): string => `\n--- activities: ${activities(u).join(' ')}\n--- stderr: ${u.stderr()}\n--- screen:\n${(() => { try { return screen(harness, sessionJson(harness, NAME).id); } catch { return '(none)'; } })()}`;
  return { harness, u, why };
}

/** Whether a file under `dir` whose name passes `pred` has a line holding the stand-in's answer that passes `line`. */
const recordWithReply = (dir: string, pred: (name: string) => boolean, line: (l: string) => boolean = () => true): boolean => {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true, recursive: true }).some(
    (e) => e.isFile() && pred(e.name) && readFileSync(path.join(e.parentPath, e.name), 'utf8').split('\n').some((l) => l.includes(REPLY) && line(l)),
  );
};

/**
 * How many processes run from the CLI's install prefix in a pid and network namespace of their own
 * (a sandbox's): 0 when the agent runs unsandboxed beside the test.
 */
function sandboxedProcesses(bin: string): number {
  const prefix = path.dirname(path.dirname(bin));
  const ourNet = readlinkSync('/proc/self/ns/net');
  let n = 0;
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(prefix)) continue;
      const nspid = /^NSpid:\s+([\d\s]+)$/m.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]?.trim().split(/\s+/) ?? [];
      if (nspid.length > 1 && readlinkSync(`/proc/${d}/ns/net`) !== ourNet) n += 1;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

/** The agent's process group killed outright, as the OOM killer would: the pane's pid leads it. */
function crash(u: Up): void {
  process.kill(-(started(u)[0]!['pid'] as number), 'SIGKILL');
}

interface Cli {
  profile: 'codex' | 'gemini';
  found: { bin: string } | { skip: string };
  startApi: () => Promise<StandIn>;
  env: (api: StandIn, h: UpHarness) => Record<string, string | undefined>;
  /** The CLI's own record of the session holds the first answer: a kill before it would resume without it. */
  recordExists: (h: UpHarness, id: string) => boolean;
}

const CLIS: Cli[] = [
  {
    profile: 'codex',
    found: installedCli('@openai/codex', '0.171.0', 'codex'),
    startApi: () => startResponsesApi(),
    env: (api, harness) => codexEnv(api, harness.tmp, harness.project),
    // The turn's end, which Codex writes after the history item a resume is built from.
    recordExists: (harness, id) => recordWithReply(path.join(harness.tmp, 'codex-home', 'sessions'), (n) => n.endsWith(`-${id}.jsonl`), (l) => l.includes('"type":"task_complete"')),
  },
  {
    profile: 'gemini',
    found: installedCli('@google/gemini-cli', '0.61.0', 'gemini'),
    startApi: () => startGeminiApi(),
    env: (api, harness) => geminiEnv(api, harness.tmp),
    recordExists: (harness, id) => recordWithReply(path.join(harness.tmp, 'gemini-home', '.gemini', 'tmp'), (n) => n.startsWith('session-') && n.includes(id.slice(0, 8))),
  },
];

for (const cli of CLIS) {
  describe.skipIf('skip' in cli.found || noSandbox)(`${cli.profile} CLI in a sandbox with an allowlist network`, () => {
    it('first turn through the proxy, its id recorded; a SIGKILL is resumed by that id with the earlier turn', async () => {
      const api = await cli.startApi();
      stop = () => api.close();
      const { harness, u, why } = sandboxed(`${cli.profile}-crash`, cli.profile, (cli.found as { bin: string }).bin, api.port, (hh) => cli.env(api, hh));
      await until('the task in a request', () => requestWith(api, [TASK_WORD]), why, STEP_MS);
      await until('waiting after the answer', () => hasEvent(u, 'session.activity', { to: 'waiting' }), why, STEP_MS);
      await until('its session id in session.json', () => sessionJson(harness, NAME).agent.sessionId !== null, why, STEP_MS);
      const id = sessionJson(harness, NAME).agent.sessionId as string;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await until('the agent record of its session', () => cli.recordExists(harness, id), why, STEP_MS);
      expect(started(u)[0]?.['launch']).toBe('new');
      expect(sandboxedProcesses((cli.found as { bin: string }).bin), 'the agent in its own pid and network namespace').toBeGreaterThan(0);

      const before = api.requests.length;
      crash(u);
      await until('the relaunch', () => started(u).length === 2, why, STEP_MS);
      expect(started(u)[1]?.['launch']).toBe('resume');
      await until('the resumed turn carrying the earlier one', () => requestWith(api, [TASK_WORD, REPLY], before), () => `${requestsSummary(api, [TASK_WORD, REPLY], 0)}${why()}`, STEP_MS);
      expect(sessionJson(harness, NAME).agent.sessionId).toBe(id);
      expect(harness.workLog(NAME)).toContain(`agent relaunched with its resume command (session ${id})`);
      expect(sandboxedProcesses((cli.found as { bin: string }).bin), 'the relaunched agent sandboxed too').toBeGreaterThan(0);
      // Nothing went around the sandbox's proxy to the stand-in's own proxy port.
      expect(api.proxied).toEqual([]);
    }, 180_000);
  });
}

const OPENCODE_VERSION = '1.18.33';
const opencode = installedCli('opencode-ai', OPENCODE_VERSION, 'opencode');
const OPENCODE_REPLY = 'Noted: the code word is PELICAN.';

describe.skipIf('skip' in opencode || noSandbox)(`opencode ${OPENCODE_VERSION} in a sandbox with an allowlist network`, () => {
  it('first turn through the proxy, its ses_ id recorded; a SIGKILL is resumed by that id with the earlier turn', async () => {
    const api = await MessagesApiStandIn.start({ defaultText: 'OK.' });
    stop = () => api.stop();
    api.enqueue({ text: OPENCODE_REPLY, delayMs: 2_000 });
    const port = Number(new URL(api.url).port);
    const { harness, u, why } = sandboxed('opencode-crash', 'opencode', (opencode as { bin: string }).bin, port, (hh) => opencodeEnv(api.url, hh.tmp));
    const turnWith = (text: string, from = 0): boolean => api.turns().slice(from).some((r) => messageTexts(r.body).some((m) => m.text.includes(text)));

    await until('the task in a request', () => turnWith(TASK_WORD), why, OPENCODE_START_MS);
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && screen(harness, sessionJson(harness, NAME).id).includes('PELICAN'), why, OPENCODE_START_MS);
    await until('the opencode session id in session.json', () => sessionJson(harness, NAME).agent.sessionId !== null, why, OPENCODE_START_MS);
    const id = sessionJson(harness, NAME).agent.sessionId as string;
    expect(id).toMatch(/^ses_[0-9A-Za-z]{26}$/);
    expect(sandboxedProcesses((opencode as { bin: string }).bin), 'opencode in its own pid and network namespace').toBeGreaterThan(0);

    const before = api.turns().length;
    crash(u);
    await until('the resumed turn', () => api.turns().length > before, why, OPENCODE_START_MS);
    const resumed = messageTexts(api.turns()[before]!.body);
    expect(resumed.map((m) => m.text).join('\n')).toContain(TASK_WORD);
    expect(resumed.filter((m) => m.role === 'assistant').map((m) => m.text).join('\n')).toContain('PELICAN');
    expect(sessionJson(harness, NAME).agent.sessionId).toBe(id);
    expect(started(u)).toHaveLength(2);
    expect(started(u)[1]?.['launch']).toBe('resume');
    expect(harness.workLog(NAME)).toMatch(/SESSION RESUMED - [^\n]*resum/);
    expect(sandboxedProcesses((opencode as { bin: string }).bin), 'the relaunched opencode sandboxed too').toBeGreaterThan(0);
  }, 300_000);
});

const claude = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');

describe.skipIf(claude === null || noSandbox)(`Claude Code ${CLAUDE_CODE_PACKAGE} at its usage limit in a sandbox with an allowlist network`, () => {
  it('is limited with the reset the API sent, and resumed once after it with its conversation', async () => {
    const api = await MessagesApiStandIn.start({ defaultText: `${REPLY}.` });
    stop = () => api.stop();
    const harness = (h = new UpHarness('sbx-claude-limit'));
    Object.assign(harness.env, claudeEnv(claude as string, api.url, path.join(harness.tmp, 'user-home')), {
      // The 429 is worded as a plan limit only for a gateway token (an API key gets "Request rejected (429)").
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: claudeGatewayToken(),
    });
    seedClaudeConfig(String(harness.env['CLAUDE_CONFIG_DIR']), harness.project);
    // Its stand-in's host is allowed without a setting: it is ANTHROPIC_BASE_URL.
    mkdirSync(harness.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(harness.home, 'settings.json'), JSON.stringify({ sandbox: { network: 'allowlist' } }));
    const trip = await limitRoundTrip(
      harness,
      'claude',
      {
        limitUntil: (ms) => api.limitUntil(ms),
        turns: () => api.turns().map((r) => ({ text: messageTexts(r.body).map((m) => m.text).join('\n'), at: r.at })),
        replyWords: REPLY,
      },
      { initArgs: ['--sandbox'] },
    );
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
    expect(sandboxedProcesses(claude as string), 'the resumed claude in its own pid and network namespace').toBeGreaterThan(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
