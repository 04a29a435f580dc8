// Usage through the real CLI binary against a real daemon: a claude-profile session (the fake agent
// stands in for the program) whose transcript gets the real Claude Code record of the fixture
// appended. `mori usage --json` sums it as the fixture's figures, `mori status` says a usage line,
// `mori ls` shows today's tokens and the context used; a request appended later is added, once; past
// the context share set in settings.json both say so.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeTranscriptPath } from '../../../../main/agents/claude/transcript.js';
import { moriIn, REPO } from '../../../../testkit/mori-cli.js';
import { until, untilValue } from '../../../../testkit/until.js';

const FIXTURE = path.join(REPO, 'test', 'support', 'fixtures', 'usage', 'claude', 'projects', '-fixture-project', '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10.jsonl');
const FAKE = path.join(REPO, 'testkit', 'fake-agent.mjs');

let root: string;
let home: string;
let env: Record<string, string>;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-usage-cli-'));
  home = path.join(root, 'home');
  env = { MORI_START_STAGGER_MS: '0', MORI_AGENT_BIN_CLAUDE: FAKE, CLAUDE_CONFIG_DIR: path.join(root, 'claude'), FAKE_AGENT_NO_HOOKS: '1' };
});
afterAll(() => {
  moriIn(home, ['down', '--stop-agents'], env);
  rmSync(root, { recursive: true, force: true });
});

/** The fixture's lines, stamped now (so they count as today) and with their ids suffixed by `tag`. */
function fixtureLines(tag: string): string {
  const now = new Date().toISOString();
  return readFileSync(FIXTURE, 'utf8')
    .replace(/"timestamp":"[^"]+"/g, `"timestamp":"${now}"`)
    .replace(/msg_standin_(\d)/g, `msg_standin_$1${tag}`);
}

describe('mori usage, status and ls', () => {
  it('show the agent record’s figures, read by the daemon and added to as the record grows', async () => {
    const project = path.join(root, 'alpha');
    mkdirSync(project, { recursive: true });
    const init = moriIn(home, ['init', project, '--name', 'alpha', '--agent', 'claude', '--backend', 'direct', '--json'], env);
    expect(init.code, init.err).toBe(0);
    const stateDir = String(init.json()['stateDir']);
    expect(moriIn(home, ['up', '--daemon'], env).code).toBe(0);
    const agent = await untilValue(
      'the agent session id recorded',
      () => Promise.resolve((JSON.parse(readFileSync(path.join(stateDir, 'session.json'), 'utf8')) as { agent: { sessionId: string | null; cwd: string | null } }).agent),
      (a) => a.sessionId !== null,
      60_000,
    );
    const transcript = claudeTranscriptPath({ CLAUDE_CONFIG_DIR: env['CLAUDE_CONFIG_DIR'] }, agent.cwd ?? project, agent.sessionId as string);
    mkdirSync(path.dirname(transcript), { recursive: true });
    appendFileSync(transcript, fixtureLines('a'));

    const usage = moriIn(home, ['usage', 'alpha', '--json'], env);
    expect(usage.code, usage.err).toBe(0);
    const [s] = usage.json()['sessions'] as { total: Record<string, unknown>; last: { contextTokens: number; contextWindow: number }; priceTable: string }[];
    expect(s?.total).toMatchObject({ requests: 2, input: 3197, output: 14, cacheWrite: 12783, cacheRead: 8647, unpriced: 0 });
    expect(s?.last).toMatchObject({ contextTokens: 12354, contextWindow: 1_000_000 });
    expect(s?.priceTable).toMatch(/^@pydantic\/genai-prices \d/);

    const status = moriIn(home, ['status', 'alpha'], env);
    expect(status.out).toMatch(/usage: 24\.6k tokens today, 24\.6k in all, \$\d+\.\d{4} \(@pydantic\/genai-prices [\d.]+\); context 12\.4k of 1M \(1 %\)/);

    // Appended once, then the same lines again (a request's lines repeated): counted once.
    const more = fixtureLines('b');
    appendFileSync(transcript, more + more);
    let listed = '';
    await until(
      'the listing counts the appended requests',
      () => /alpha .* 49\.3k today · ctx 1 %/.test((listed = moriIn(home, ['ls'], env).out)),
      () => listed,
      30_000,
    );
    const again = moriIn(home, ['usage', '--json'], env).json()['sessions'] as { total: { requests: number } }[];
    expect(again[0]?.total.requests).toBe(4);
    const table = moriIn(home, ['usage', '--since', '20000101'], env);
    expect(table.out).toMatch(/^alpha \(claude\)/m);
    expect(table.out).toMatch(/^total .*\$\d/m);
    expect(moriIn(home, ['usage', '--since', 'yesterday'], env).code).toBe(2);

    // A context share the person set (1 %, under the fixture's 1.2 %) is said at the next listing.
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ usage: { contextWarnPercent: 1 } }));
    expect(moriIn(home, ['status', 'alpha'], env).out).toMatch(/context 12\.4k of 1M \(1 %\), over the 1 % set/);
    expect(moriIn(home, ['ls'], env).out).toMatch(/alpha .* ctx 1 % \(over 1 %\)/);
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ usage: { contextWarnPercent: 2 } }));
    expect(moriIn(home, ['ls'], env).out).not.toMatch(/over/);
  }, 180_000);
});
