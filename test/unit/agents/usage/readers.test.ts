// The usage readers on records the real CLIs wrote (test/support/fixtures/usage/, see its record-*.ts):
// Claude Code's transcript (a request written as several lines counted once) and Codex's rollout
// (running totals into steps), read incrementally through SessionUsageReader: a partial last line,
// appends, and a record replaced mid-way; priced by the bundled table or "no price".
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { totalTokens } from '../../../../common/usage.js';
import { claudeUsage } from '../../../../main/agents/claude/usage.js';
import { codexUsage } from '../../../../main/agents/codex/usage.js';
import { geminiUsage } from '../../../../main/agents/gemini/usage.js';
import { SessionUsageReader } from '../../../../main/agents/usage/session-usage.js';
import { calcPrice } from '@pydantic/genai-prices';
import { contextWindow, PRICE_TABLE, requestCost } from '../../../../main/agents/usage/usage-cost.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'support', 'fixtures', 'usage');
const CLAUDE_ID = '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10';
const CLAUDE_FILE = path.join(FIXTURES, 'claude', 'projects', '-fixture-project', `${CLAUDE_ID}.jsonl`);
const CODEX_DAY = path.join(FIXTURES, 'codex', 'sessions', '2026', '12', '06');

/** A copy of the Claude fixture in a config dir of its own, for a test to append to or replace. */
function claudeCopy(): { env: Record<string, string>; file: string } {
  const config = mkdtempSync(path.join(os.tmpdir(), 'mori-usage-'));
  const dir = path.join(config, 'projects', '-fixture-project');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${CLAUDE_ID}.jsonl`);
  copyFileSync(CLAUDE_FILE, file);
  return { env: { CLAUDE_CONFIG_DIR: config }, file };
}

const ref = { agentSessionId: CLAUDE_ID, cwd: '/fixture/project' };

describe('Claude Code usage', () => {
  it('counts each request once though its reply is written as one line per content block', async () => {
    const r = new SessionUsageReader(claudeUsage, { CLAUDE_CONFIG_DIR: path.join(FIXTURES, 'claude') }, 'UTC');
    await r.refresh(ref);
    expect(r.problem).toBeNull();
    const t = r.tally.total();
    // Three assistant lines in the fixture, two requests (msg_standin_1 has a text and a tool_use line).
    expect(t).toMatchObject({ requests: 2, input: 3197, output: 14, cacheWrite: 12783, cacheRead: 8647, unpriced: 0, models: ['claude-opus-5-5'] });
    expect(t.cost).toBeGreaterThan(0);
    expect(r.tally.perDay().map((d) => d.day)).toEqual(['2026-12-06']);
    expect(r.tally.last).toMatchObject({ model: 'claude-opus-5-5', contextTokens: 742 + 2965 + 8647, contextWindow: 1_000_000 });
  });

  it('reads a partial last line once completed, and appended requests only', async () => {
    const { env, file } = claudeCopy();
    const text = readFileSync(file, 'utf8');
    const lastAssistant = text.split('\n').filter((l) => l.includes('"type":"assistant"')).at(-1) as string;
    const more = lastAssistant.replaceAll('msg_standin_2', 'msg_standin_9').replaceAll('req_msg_standin_2', 'req_msg_standin_9');
    const r = new SessionUsageReader(claudeUsage, env, 'UTC');
    await r.refresh(ref);
    appendFileSync(file, more.slice(0, 100));
    await r.refresh(ref);
    expect(r.tally.total().requests).toBe(2);
    appendFileSync(file, `${more.slice(100)}\n${more}\n`); // the same request twice: counted once
    await r.refresh(ref);
    expect(r.tally.total()).toMatchObject({ requests: 3, output: 14 + 8 });
  });

  it('starts over when the transcript is replaced mid-way', async () => {
    const { env, file } = claudeCopy();
    const r = new SessionUsageReader(claudeUsage, env, 'UTC');
    await r.refresh(ref);
    const firstRequestOnly = readFileSync(file, 'utf8').split('\n').filter((l) => !l.includes('msg_standin_2')).join('\n');
    writeFileSync(`${file}.new`, firstRequestOnly);
    renameSync(`${file}.new`, file);
    await r.refresh(ref);
    expect(r.tally.total()).toMatchObject({ requests: 1, input: 2455, output: 6 });
  });

  it('says why there are no figures before the agent wrote its record', async () => {
    const r = new SessionUsageReader(claudeUsage, { CLAUDE_CONFIG_DIR: path.join(FIXTURES, 'claude') }, 'UTC');
    await r.refresh({ agentSessionId: null, cwd: '/fixture/project' });
    expect(r.problem).toBe('no agent session yet');
    await r.refresh({ ...ref, agentSessionId: '11111111-2222-4333-8444-555555555555' });
    expect(r.problem).toMatch(/does not exist/);
    expect(r.tally.total().requests).toBe(0);
  });
});

describe('Codex usage', () => {
  it('takes each request as the step between running totals, cached input apart, the window from the rollout', async () => {
    const name = readdirSync(CODEX_DAY)[0] as string;
    const id = /([0-9a-f-]{36})\.jsonl$/.exec(name)?.[1] as string;
    const r = new SessionUsageReader(codexUsage, { CODEX_HOME: path.join(FIXTURES, 'codex') }, 'UTC');
    await r.refresh({ agentSessionId: id, cwd: '/fixture/project' });
    expect(r.problem).toBeNull();
    expect(r.tally.total()).toMatchObject({ requests: 2, input: 13377, cacheRead: 7255, output: 13, unpriced: 2, cost: 0 });
    expect(r.tally.last).toMatchObject({ model: 'gpt-stand-in', contextTokens: 10365, contextWindow: 258400 });
  });
});

describe('Gemini CLI usage', () => {
  it('counts a reply once though its line is written again as it changes, cached input and thoughts apart', async () => {
    const r = new SessionUsageReader(geminiUsage, { GEMINI_CLI_HOME: path.join(FIXTURES, 'gemini') }, 'UTC');
    await r.refresh({ agentSessionId: '3d215134-998f-42f0-a54c-b519f859feff', cwd: '/fixture/project' });
    expect(r.problem).toBeNull();
    // Three reply lines in the fixture, two replies (the first is written again with its tool call's result).
    expect(r.tally.total()).toMatchObject({ requests: 2, input: 15075, cacheRead: 8167, output: 6 + 2 + 7 + 2, cacheWrite: 0, models: ['gemini-3.1-pro-preview'] });
    expect(r.tally.last).toMatchObject({ contextTokens: 11668 });
  });
});

describe('prices and windows', () => {
  it('prices each request as the table does, its tiers included, and an unknown model not at all', () => {
    const atMs = Date.parse('2026-12-06T12:00:00Z');
    const cases: [string, string, number, number, number, number][] = [
      ['claude-opus-5-5', 'anthropic', 2455, 6, 0, 9818],
      ['claude-sonnet-4-5', 'anthropic', 742, 8, 8647, 2965],
      ['claude-sonnet-4-5', 'anthropic', 150_000, 900, 60_000, 5_000], // past the 200k tier
      ['gpt-5.1-codex', 'openai', 3112, 7, 7255, 0],
      ['gemini-2.5-pro', 'google', 3501, 9, 8167, 0],
    ];
    for (const [model, provider, input, output, cacheRead, cacheWrite] of cases) {
      const table = calcPrice({ input_tokens: input + cacheRead + cacheWrite, output_tokens: output, cache_read_tokens: cacheRead, cache_write_tokens: cacheWrite }, model, { providerId: provider, timestamp: new Date(atMs) });
      const ours = requestCost({ atMs, model, input, output, cacheRead, cacheWrite, contextTokens: 0, contextWindow: null }, provider);
      expect(ours, model).toBeCloseTo(table?.total_price ?? NaN, 12);
    }
    expect(requestCost({ atMs, model: 'gpt-stand-in', input: 1, output: 1, cacheRead: 0, cacheWrite: 0, contextTokens: 0, contextWindow: null }, 'openai')).toBeNull();
  });

  it('names the installed table, knows the windows it lacks from the overrides, and none for an unknown model', async () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../..', 'node_modules', '@pydantic', 'genai-prices', 'package.json'), 'utf8')) as { version: string };
    expect(PRICE_TABLE).toBe(`@pydantic/genai-prices ${pkg.version}`);
    expect(contextWindow('gemini-2.5-pro', 'google')).toBe(1_048_576);
    expect(contextWindow('claude-sonnet-4-5', 'anthropic')).toBe(200_000);
    expect(contextWindow('gpt-stand-in', 'openai')).toBeNull();
    expect(totalTokens({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4, requests: 1, cost: 0, unpriced: 0, models: [] })).toBe(10);
  });
});
