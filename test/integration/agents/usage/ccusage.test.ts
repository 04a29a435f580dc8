// Our usage sums for the real CLIs' records (test/support/fixtures/usage/) against ccusage's, the tool people
// know these figures from: `ccusage claude|codex session --offline --json`, pointed at the fixture
// by CLAUDE_CONFIG_DIR and CODEX_HOME (its own HOME elsewhere, so nothing of the machine's counts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { claudeUsage } from '../../../../main/agents/claude/usage.js';
import { codexUsage } from '../../../../main/agents/codex/usage.js';
import { geminiUsage } from '../../../../main/agents/gemini/usage.js';
import { totalTokens } from '../../../../common/usage.js';
import { SessionUsageReader } from '../../../../main/agents/usage/session-usage.js';
import { REPO } from '../../../../testkit/mori-cli.js';

const FIXTURES = path.join(REPO, 'test', 'support', 'fixtures', 'usage');
const CCUSAGE = path.join(REPO, 'node_modules', '.bin', 'ccusage');

interface CcusageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

async function ccusage(agent: 'claude' | 'codex' | 'gemini', env: Record<string, string>): Promise<CcusageTotals> {
  const { stdout } = await promisify(execFile)(CCUSAGE, [agent, 'session', '--offline', '--json', '--timezone', 'UTC'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: mkdtempSync(path.join(os.tmpdir(), 'mori-ccusage-home-')), ...env },
    timeout: 60_000,
  });
  return (JSON.parse(stdout) as { totals: CcusageTotals }).totals;
}

describe('usage sums equal ccusage', () => {
  it('for Claude Code', async () => {
    const env = { CLAUDE_CONFIG_DIR: path.join(FIXTURES, 'claude') };
    const r = new SessionUsageReader(claudeUsage, env, 'UTC');
    await r.refresh({ agentSessionId: '0f5e3a52-5c1e-4b8e-9a43-6c1f2d7b9e10', cwd: '/fixture/project' });
    const ours = r.tally.total();
    const theirs = await ccusage('claude', env);
    expect({ input: ours.input, output: ours.output, cacheWrite: ours.cacheWrite, cacheRead: ours.cacheRead }).toEqual({
      input: theirs.inputTokens,
      output: theirs.outputTokens,
      cacheWrite: theirs.cacheCreationTokens,
      cacheRead: theirs.cacheReadTokens,
    });
  }, 90_000);

  it('for Codex', async () => {
    const env = { CODEX_HOME: path.join(FIXTURES, 'codex') };
    const name = readdirSync(path.join(FIXTURES, 'codex', 'sessions', '2026', '12', '06'))[0] as string;
    const r = new SessionUsageReader(codexUsage, env, 'UTC');
    await r.refresh({ agentSessionId: /([0-9a-f-]{36})\.jsonl$/.exec(name)?.[1] ?? '', cwd: '/fixture/project' });
    const ours = r.tally.total();
    const theirs = await ccusage('codex', env);
    expect(ours.requests).toBeGreaterThan(1);
    expect({ input: ours.input, output: ours.output, cacheWrite: ours.cacheWrite, cacheRead: ours.cacheRead }).toEqual({
      input: theirs.inputTokens,
      output: theirs.outputTokens,
      cacheWrite: theirs.cacheCreationTokens,
      cacheRead: theirs.cacheReadTokens,
    });
  }, 90_000);

  it('for Gemini CLI (whose output leaves thoughts out: the totals agree)', async () => {
    const dir = path.join(FIXTURES, 'gemini');
    const r = new SessionUsageReader(geminiUsage, { GEMINI_CLI_HOME: dir }, 'UTC');
    await r.refresh({ agentSessionId: '3d215134-998f-42f0-a54c-b519f859feff', cwd: '/fixture/project' });
    const ours = r.tally.total();
    // ccusage finds Gemini's chats under $HOME/.gemini.
    const theirs = await ccusage('gemini', { HOME: dir });
    expect({ input: ours.input, cacheRead: ours.cacheRead, total: totalTokens(ours) }).toEqual({ input: theirs.inputTokens, cacheRead: theirs.cacheReadTokens, total: theirs.totalTokens });
    expect(ours.output).toBeGreaterThan(theirs.outputTokens);
  }, 90_000);
});
