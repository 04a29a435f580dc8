// The real Claude Code, Codex CLI and Gemini CLI under a real `mori up` (tmux backend) meeting their
// API's usage-limit answer: the loopback stand-in refuses every turn as over the limit with a reset a
// minute or two ahead, the first prompt goes out, and the agent's own limit screen is read from its
// pane. Each test asserts the CLI's limit wording and the reset time it printed; with
// MORI_CAPTURE_SCREENS=1 the screen is also saved as test/support/fixtures/agent-screens/<cli>-usage-limit.txt
// (the project path replaced by /tmp/agent-screens/proj, trailing blanks trimmed), as the other
// fixtures were captured. The CLIs come from the cache test/support/agent-clis/install.sh fills; absent → skipped.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudeGatewayToken, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { codexEnv, geminiEnv, installedCli, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { MessagesApiStandIn } from '../../../testkit/messages-api.js';
import { startGeminiApi } from '../../support/stand-ins/gemini-api.js';
import { startResponsesApi } from '../../support/stand-ins/responses-api.js';

const FIXTURES = fileURLToPath(new URL('../../support/fixtures/agent-screens/', import.meta.url));
/** A CLI's start and first request take up to ~20 s on a busy 2-core machine; its retries before the limit screen a few more. */
const SCREEN_MS = DEADLINE_MS * 3;
const TEST_TIMEOUT_MS = SCREEN_MS + 30_000;
const MINUTE_MS = 60_000;

/** A running stand-in whose turns can be refused as over the limit, and how to end it. */
interface LimitedApi {
  limitUntil(epochMs: number | null): void;
  stop(): Promise<void>;
}

interface Cli {
  name: 'claude' | 'codex' | 'gemini';
  /** The fixture's name after `<name>-`. */
  fixture: string;
  /** How far ahead the reset is, at least (rounded up to a whole minute). */
  aheadMs: number;
  /** The executable, or why the test skips. */
  bin: string | null;
  skip: string;
  /** Starts the stand-in and fills the harness's environment for this CLI against it. */
  rig(h: UpHarness, bin: string): Promise<LimitedApi>;
  /** The CLI's limit line; group 1, when the CLI names one, is the reset time as printed (`5:08am`, `5:08 AM`). */
  limitLine: RegExp;
}

const claudeBin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const codexFound = installedCli('@openai/codex', '0.171.0', 'codex');
const geminiFound = installedCli('@google/gemini-cli', '0.61.0', 'gemini');

const CLIS: Cli[] = [
  {
    name: 'claude',
    fixture: 'usage-limit',
    aheadMs: MINUTE_MS,
    bin: claudeBin,
    skip: `not installed; run \`test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE}\``,
    async rig(h, bin) {
      const api = await MessagesApiStandIn.start();
      Object.assign(h.env, claudeEnv(bin, api.url, path.join(h.tmp, 'user-home')), {
        // Claude Code words a 429 as a plan limit only for a claude.ai sign-in or a gateway token;
        // with an API key it prints "API Error: Request rejected (429) · …" instead.
        ANTHROPIC_API_KEY: undefined,
        ANTHROPIC_AUTH_TOKEN: claudeGatewayToken(),
      });
      seedClaudeConfig(String(h.env['CLAUDE_CONFIG_DIR']), h.project);
      return { limitUntil: (ms) => api.limitUntil(ms), stop: () => api.stop() };
    },
    limitLine: /You've hit your 5-hour limit · resets (\d{1,2}:\d{2}[ap]m)/,
  },
  {
    name: 'codex',
    fixture: 'usage-limit',
    aheadMs: MINUTE_MS,
    bin: 'bin' in codexFound ? codexFound.bin : null,
    skip: 'skip' in codexFound ? codexFound.skip : '',
    async rig(h, bin) {
      const api = await startResponsesApi();
      Object.assign(h.env, codexEnv(api, h.tmp, h.project), { MORI_AGENT_BIN_CODEX: bin });
      return { limitUntil: (ms) => api.limitUntil(ms), stop: () => api.close() };
    },
    // Codex words it with a typographic apostrophe.
    limitLine: /You’ve hit your usage limit\. Try again at (\d{1,2}:\d{2} [AP]M)\./,
  },
  {
    // A retry delay over Gemini CLI's 300 s: it stops at once and its dialog names the reset time.
    name: 'gemini',
    fixture: 'usage-limit',
    aheadMs: 6 * MINUTE_MS,
    bin: 'bin' in geminiFound ? geminiFound.bin : null,
    skip: 'skip' in geminiFound ? geminiFound.skip : '',
    async rig(h, bin) {
      const api = await startGeminiApi();
      Object.assign(h.env, geminiEnv(api, h.tmp), { MORI_AGENT_BIN_GEMINI: bin });
      return { limitUntil: (ms) => api.limitUntil(ms), stop: () => api.close() };
    },
    limitLine: /Usage limit reached for \S+\.[\s│]+Access resets at (\d{1,2}:\d{2} [AP]M)/,
  },
  {
    // A daily quota a minute from its reset: Gemini CLI stops at once, and names no time.
    name: 'gemini',
    fixture: 'usage-limit-daily',
    aheadMs: MINUTE_MS,
    bin: 'bin' in geminiFound ? geminiFound.bin : null,
    skip: 'skip' in geminiFound ? geminiFound.skip : '',
    async rig(h, bin) {
      const api = await startGeminiApi();
      Object.assign(h.env, geminiEnv(api, h.tmp), { MORI_AGENT_BIN_GEMINI: bin });
      return { limitUntil: (ms) => api.limitUntil(ms, { daily: true }), stop: () => api.close() };
    },
    limitLine: /Usage limit reached for \S+\.[\s│]+\/stats model for usage details/,
  },
];

/** `h:mm` of `epochMs` on a 12-hour clock in this machine's zone (the agents run with this environment). */
const clock12 = (epochMs: number): string => {
  const parts = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true }).formatToParts(new Date(epochMs));
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')}`;
};

/** The screen as the fixtures keep it: trailing blanks trimmed, runs of empty lines cut to two, the temp project path generic. */
const asFixture = (text: string, project: string): string =>
  `${text
    .split(project)
    .join('/tmp/agent-screens/proj')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{4,}/g, '\n\n\n')
    .replace(/^\n+|\n+$/g, '')}\n`;

let h: UpHarness | null = null;
let api: LimitedApi | null = null;
afterEach(async () => {
  const tmp = h?.tmp;
  try {
    h?.cleanup();
  } catch {
    // an agent still writing its files on its way out: try again once it is gone
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  h = null;
  await api?.stop();
  api = null;
});

for (const cli of CLIS) {
  describe.skipIf(cli.bin === null)(`${cli.name} at its usage limit under mori up${cli.bin === null ? ` (skipped: ${cli.skip})` : ''}`, () => {
    it(`shows its own limit screen (${cli.fixture}) with the reset time the API sent, where it names one`, async () => {
      const harness = new UpHarness(`${cli.name}-${cli.fixture}`);
      h = harness;
      api = await cli.rig(harness, cli.bin as string);
      // On a whole minute, one to two minutes ahead: every CLI prints minutes, none rounds across one.
      const resetMs = Math.ceil((Date.now() + cli.aheadMs) / MINUTE_MS) * MINUTE_MS;
      api.limitUntil(resetMs);
      const init = harness.mori('init', harness.project, '--name', 's', '--agent', cli.name, '--backend', 'tmux', '--task', 'write the word pelican into notes.txt');
      expect(init.code, init.stderr).toBe(0);
      const u = harness.up();
      const shown = (): string => {
        try {
          return screen(harness, sessionJson(harness, 's').id);
        } catch {
          return '';
        }
      };
      await until(`${cli.name}'s limit line`, () => cli.limitLine.test(shown()), () => `${u.stderr()}\n${shown()}`, SCREEN_MS);
      const text = shown();
      const line = cli.limitLine.exec(text);
      expect(line, text).not.toBeNull();
      // Group 1 is the printed reset time; a limit line without one (Gemini's daily quota) names none at all.
      if (line?.[1] !== undefined) expect(line[1].replace(/ ?[ap]m$/i, ''), text).toBe(clock12(resetMs));
      else expect(text).not.toContain(clock12(resetMs));
      if (process.env['MORI_CAPTURE_SCREENS'] === '1') writeFileSync(path.join(FIXTURES, `${cli.name}-${cli.fixture}.txt`), asFixture(text, harness.project));
    }, TEST_TIMEOUT_MS);
  });
}
