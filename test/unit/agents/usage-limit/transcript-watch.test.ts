// The agent's transcript as a source of usage limits, read from real files at a turn's end
// (main/supervisor/limits/transcript-limit-watch.ts): the Claude Code transcript where the profile
// keeps it, a symlink or a FIFO in its place refused without blocking, only the tail read.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeTranscriptPath } from '../../../../main/agents/claude/transcript.js';
import { readTail, transcriptUsageLimit, turnEnded } from '../../../../main/supervisor/limits/transcript-limit-watch.js';

const ID = '6f1c2b9e-0d3a-4e5f-8a7b-9c0d1e2f3a4b';
const NOW = Date.parse('2026-07-15T12:00:00Z');
const limitEntry = JSON.stringify({
  type: 'assistant', timestamp: '2026-07-15T11:59:30Z', isApiErrorMessage: true, error: 'rate_limit', apiErrorStatus: 429, apiError: 'usage_limit_reached',
  apiErrorParams: { rate_limit_info: { status: 'rejected', resetsAt: Math.floor(NOW / 1000) + 3600, rateLimitType: 'five_hour' } },
  message: { role: 'assistant', content: [{ type: 'text', text: "You've hit your session limit · resets 1pm (UTC)" }] },
});

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setUp(): { env: Record<string, string>; cwd: string; file: string } {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mori-limit-transcript-'));
  const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'claude'), HOME: dir };
  const cwd = path.join(dir, 'project');
  mkdirSync(cwd);
  const file = claudeTranscriptPath(env, cwd, ID);
  mkdirSync(path.dirname(file), { recursive: true });
  return { env, cwd, file };
}

describe('usage limits from the agent transcript at a turn end', () => {
  it('reads the limit Claude Code recorded, from the tail of a big transcript', async () => {
    const { env, cwd, file } = setUp();
    // 2 MB of earlier turns before the refused request: only the tail is read.
    const earlier = `${JSON.stringify({ type: 'user', message: { content: 'x'.repeat(1000) } })}\n`.repeat(2000);
    writeFileSync(file, `${earlier}${limitEntry}\n`);
    const s = await transcriptUsageLimit({ profile: 'claude', env, agentSessionId: ID, cwd, nowMs: NOW }, 'UTC');
    expect(s).toMatchObject({ profile: 'claude', source: 'transcript', resetAtMs: NOW + 3_600_000 });
  });

  it('refuses a symlink in the transcript’s place and does not block on a FIFO', async () => {
    const { env, cwd, file } = setUp();
    const elsewhere = path.join(dir, 'elsewhere.jsonl');
    writeFileSync(elsewhere, `${limitEntry}\n`);
    symlinkSync(elsewhere, file);
    expect(await transcriptUsageLimit({ profile: 'claude', env, agentSessionId: ID, cwd, nowMs: NOW }, 'UTC')).toBeNull();
    rmSync(file);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    const started = Date.now();
    expect(await readTail(file)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('has nothing to read without an agent session id or for agents that keep no such record', async () => {
    const { env, cwd } = setUp();
    expect(await transcriptUsageLimit({ profile: 'claude', env, agentSessionId: null, cwd, nowMs: NOW })).toBeNull();
    expect(await transcriptUsageLimit({ profile: 'aider', env, agentSessionId: ID, cwd, nowMs: NOW })).toBeNull();
  });

  it('reads only when a turn ends', () => {
    expect(turnEnded('working', 'waiting')).toBe(true);
    expect(turnEnded('working', 'error')).toBe(true);
    expect(turnEnded('waiting', 'working')).toBe(false);
    expect(turnEnded('needs-input', 'waiting')).toBe(false);
  });
});
