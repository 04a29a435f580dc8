// Usage limits read from an agent's transcript (claude/limits.ts, codex/limits.ts) and from Claude Code's
// StopFailure hook payload (limit-hook.ts): the entries each CLI writes, the newest deciding, and
// hostile payloads.
import { describe, expect, it } from 'vitest';
import { hookUsageLimit } from '../../../../main/agents/claude/limit-hook.js';
import { claudeTranscriptUsageLimit } from '../../../../main/agents/claude/limits.js';
import { codexRolloutUsageLimit } from '../../../../main/agents/codex/limits.js';

/**
 * The fastest of three runs, in ms: the machine is shared, so one run can be descheduled; a
 * super-linear reader is slow on every run and still fails.
 */
function fastestMs(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const NOW = Date.parse('2026-07-15T12:00:00Z');
const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
const jsonl = (...entries: unknown[]): string => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

// Claude Code 2.1.332's assistant entries, shaped as its transcript writer builds them.
const claudeUser = { type: 'user', timestamp: '2026-07-15T11:58:00Z', message: { role: 'user', content: 'fix the test' } };
const claudeReply = { type: 'assistant', timestamp: '2026-07-15T11:59:00Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } };
const claudeLimit = (text: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'assistant', timestamp: '2026-07-15T11:59:30Z', isApiErrorMessage: true, error: 'rate_limit', apiErrorStatus: 429,
  message: { role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text }] }, ...extra,
});

describe('claudeTranscriptUsageLimit (Claude Code session JSONL)', () => {
  it('2.1.332: usage_limit_reached with rate_limit_info.resetsAt gives that instant', () => {
    const entry = claudeLimit("You've hit your session limit · resets 12:50am (America/Los_Angeles)", {
      apiError: 'usage_limit_reached', apiErrorParams: { rate_limit_info: { status: 'rejected', resetsAt: 1784188200, rateLimitType: 'five_hour' } },
    });
    const s = claudeTranscriptUsageLimit(jsonl(claudeUser, entry), NOW, 'UTC');
    expect(s).toEqual({ profile: 'claude', source: 'transcript', resetAtMs: 1784188200_000, text: "You've hit your session limit · resets 12:50am (America/Los_Angeles)" });
  });

  it('2.1.332: without rate_limit_info the reset comes from the text, read from the entry’s own time', () => {
    const entry = claudeLimit("You've hit your weekly limit · resets 11:45am (UTC)", { apiError: 'usage_limit_reached', timestamp: '2026-07-15T11:40:00Z' });
    // Read from now (12:00) 11:45 would be tomorrow's; the entry was written at 11:40, so it is today's.
    expect(iso(claudeTranscriptUsageLimit(jsonl(entry), NOW + 3_600_000, 'UTC')?.resetAtMs)).toBe('2026-07-15T11:45:00.000Z');
  });

  it('2.1.30: a 429 rate_limit entry whose text is a limit message counts', () => {
    const s = claudeTranscriptUsageLimit(jsonl(claudeLimit("You've hit your limit · resets 10pm (America/New_York)")), NOW, 'UTC');
    expect(iso(s?.resetAtMs)).toBe('2026-07-16T02:00:00.000Z');
  });

  it('1.0.x: "Claude AI usage limit reached|<epoch>" counts with its epoch', () => {
    const entry = { type: 'assistant', isApiErrorMessage: true, message: { content: [{ type: 'text', text: 'Claude AI usage limit reached|1749924000' }] }, apiErrorStatus: 429 };
    expect(claudeTranscriptUsageLimit(jsonl(entry), NOW, 'UTC')?.resetAtMs).toBe(1749924000_000);
  });

  it('a server throttle sharing error rate_limit (no usage_limit_reached, other words) is not a usage limit', () => {
    const entry = claudeLimit('API Error: Request rejected (429) · This request would exceed your account\'s rate limit. Please try again later.');
    expect(claudeTranscriptUsageLimit(jsonl(entry), NOW, 'UTC')).toBeNull();
  });

  it('a reply after the limit means it has passed', () => {
    const limit = claudeLimit("You've hit your session limit · resets 3pm (UTC)", { apiError: 'usage_limit_reached' });
    expect(claudeTranscriptUsageLimit(jsonl(limit, claudeUser, claudeReply), NOW, 'UTC')).toBeNull();
    expect(claudeTranscriptUsageLimit(jsonl(claudeReply, claudeUser, limit), NOW, 'UTC')).not.toBeNull();
  });

  it('the person’s own message about the limit is not one (it is a user entry)', () => {
    const user = { type: 'user', message: { role: 'user', content: "You've hit your session limit · resets 3pm (UTC) — why?" } };
    expect(claudeTranscriptUsageLimit(jsonl(user), NOW, 'UTC')).toBeNull();
  });

  it('broken, hostile and over-long lines are skipped', () => {
    const limit = claudeLimit("You've hit your session limit · resets 3pm (UTC)", { apiError: 'usage_limit_reached' });
    const text = [
      JSON.stringify(limit),
      '{"type":"assistant", not json',
      JSON.stringify({ type: 'assistant', isApiErrorMessage: 'yes', message: 5 }),
      `{"type":"assistant","pad":"${'x'.repeat(300 * 1024)}"}`,
    ].join('\n');
    expect(claudeTranscriptUsageLimit(text, NOW, 'UTC')?.text).toBe("You've hit your session limit · resets 3pm (UTC)");
  });

  it('a 5 MB transcript is read in well under 50 ms', () => {
    const big = jsonl(...Array.from({ length: 5000 }, () => ({ type: 'progress', data: 'y'.repeat(1000) })), claudeLimit("You've hit your session limit · resets 3pm (UTC)", { apiError: 'usage_limit_reached' }));
    expect(claudeTranscriptUsageLimit(big, NOW, 'UTC')).not.toBeNull();
    expect(fastestMs(() => claudeTranscriptUsageLimit(big, NOW, 'UTC'))).toBeLessThan(50);
  });
});

// Codex 0.171.0 rollout entries (protocol names from the binary's strings).
const tokenCount = (primary: unknown, secondary: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  timestamp: '2026-07-15T11:50:00Z', type: 'event_msg',
  payload: { type: 'token_count', info: null, rate_limits: { limit_id: 'codex', primary, secondary, credits: null, ...extra } },
});

describe('codexRolloutUsageLimit (Codex rollout JSONL)', () => {
  it('0.171.0: primary window at 100 % resets at its resets_at', () => {
    const e = tokenCount({ used_percent: 100, window_minutes: 300, resets_at: 1784131200 }, { used_percent: 40, window_minutes: 10080, resets_at: 1784600000 });
    const s = codexRolloutUsageLimit(jsonl(e), NOW, 'UTC');
    expect(s?.source).toBe('transcript');
    expect(s?.resetAtMs).toBe(1784131200_000);
  });

  it('0.171.0: both windows exhausted: the later reset', () => {
    const e = tokenCount({ used_percent: 100, resets_at: 1784131200 }, { used_percent: 100.0, resets_at: 1784600000 });
    expect(codexRolloutUsageLimit(jsonl(e), NOW, 'UTC')?.resetAtMs).toBe(1784600000_000);
  });

  it('0.4x: resets_in_seconds counts from the entry’s time', () => {
    const e = tokenCount({ used_percent: 100, window_minutes: 300, resets_in_seconds: 600 }, null);
    expect(iso(codexRolloutUsageLimit(jsonl(e), NOW, 'UTC')?.resetAtMs)).toBe('2026-07-15T12:00:00.000Z');
  });

  it('windows under 100 % are no limit, and a newer such snapshot clears an older limit', () => {
    const limited = tokenCount({ used_percent: 100, resets_at: 1784131200 }, null);
    const fine = tokenCount({ used_percent: 99.9, resets_at: 1784131200 }, { used_percent: 12, resets_at: 1784600000 });
    expect(codexRolloutUsageLimit(jsonl(fine), NOW, 'UTC')).toBeNull();
    expect(codexRolloutUsageLimit(jsonl(limited, fine), NOW, 'UTC')).toBeNull();
    expect(codexRolloutUsageLimit(jsonl(fine, limited), NOW, 'UTC')).not.toBeNull();
  });

  it('rate_limit_reached_type set without a window at 100 %: a limit with no known reset', () => {
    const e = tokenCount({ used_percent: 80, resets_at: 1784131200 }, null, { rate_limit_reached_type: 'workspace_member_usage_limit_reached' });
    expect(codexRolloutUsageLimit(jsonl(e), NOW, 'UTC')).toMatchObject({ resetAtMs: null, text: 'rate limits at 100% (workspace_member_usage_limit_reached)' });
  });

  it('an error entry with the screen’s message counts, its reset read from the entry’s time', () => {
    const e = { timestamp: '2026-07-15T11:00:00Z', type: 'event_msg', payload: { type: 'error', message: "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again in 37 minutes." } };
    expect(iso(codexRolloutUsageLimit(jsonl(e), NOW, 'UTC')?.resetAtMs)).toBe('2026-07-15T11:37:00.000Z');
  });

  it('an agent message after the limit means it has passed; a user message quoting it is nothing', () => {
    const limited = tokenCount({ used_percent: 100, resets_at: 1784131200 }, null);
    const agent = { type: 'event_msg', payload: { type: 'agent_message', message: 'Continuing.' } };
    const user = { type: 'event_msg', payload: { type: 'user_message', message: "You've hit your usage limit. try again at 3:42 PM" } };
    expect(codexRolloutUsageLimit(jsonl(limited, agent), NOW, 'UTC')).toBeNull();
    expect(codexRolloutUsageLimit(jsonl(user), NOW, 'UTC')).toBeNull();
  });

  it('hostile entries (wrong types, NaN-ish numbers, junk) are skipped', () => {
    const text = [
      JSON.stringify(tokenCount({ used_percent: 100, resets_at: 1784131200 }, null)),
      JSON.stringify(tokenCount({ used_percent: '100' }, null)),
      JSON.stringify({ type: 'event_msg', payload: { type: 'token_count', rate_limits: { primary: { used_percent: 100, resets_at: -5 } } } }),
      '{"type":"event_msg"',
    ].join('\n');
    expect(codexRolloutUsageLimit(text, NOW, 'UTC')?.resetAtMs).toBe(1784131200_000);
  });
});

// Claude Code 2.1.332's StopFailure hook input (its zod schema in bin/claude.exe).
const stopFailure = (extra: Record<string, unknown>): Record<string, unknown> => ({
  session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'StopFailure', ...extra,
});

describe('hookUsageLimit (Claude Code StopFailure)', () => {
  it('2.1.332: error rate_limit with error_details usage_limit_reached and the message', () => {
    const p = stopFailure({ error: 'rate_limit', error_details: 'usage_limit_reached', last_assistant_message: "You've hit your session limit · resets 12:50am (America/Los_Angeles)" });
    expect(hookUsageLimit('StopFailure', p, NOW, 'UTC')).toEqual({
      profile: 'claude', source: 'hook', resetAtMs: Date.parse('2026-07-16T07:50:00Z'), text: "You've hit your session limit · resets 12:50am (America/Los_Angeles)",
    });
  });

  it('error rate_limit with a limit message but no error_details still counts', () => {
    const p = stopFailure({ error: 'rate_limit', last_assistant_message: '5-hour limit reached ∙ resets 3pm' });
    expect(iso(hookUsageLimit('StopFailure', p, NOW, 'America/Los_Angeles')?.resetAtMs)).toBe('2026-07-15T22:00:00.000Z');
  });

  it('usage_limit_reached without a message is a limit with no known reset', () => {
    expect(hookUsageLimit('StopFailure', stopFailure({ error: 'rate_limit', error_details: 'usage_limit_reached' }), NOW, 'UTC')).toEqual({
      profile: 'claude', source: 'hook', resetAtMs: null, text: 'usage limit reached',
    });
  });

  it.each([
    ['another event', 'Stop', stopFailure({ error: 'rate_limit', error_details: 'usage_limit_reached' })],
    ['another failure', 'StopFailure', stopFailure({ error: 'overloaded', last_assistant_message: "You've hit your session limit · resets 3pm" })],
    ['a throttle in other words', 'StopFailure', stopFailure({ error: 'rate_limit', last_assistant_message: 'Request rejected (429) · try again in 5 minutes' })],
    ['error not a string', 'StopFailure', stopFailure({ error: { type: 'rate_limit' } })],
    ['no payload', 'StopFailure', null],
    ['an array', 'StopFailure', ['rate_limit']],
    ['a wrong event name inside', 'StopFailure', stopFailure({ hook_event_name: 'Stop', error: 'rate_limit', error_details: 'usage_limit_reached' })],
  ])('%s → null', (_name, event, payload) => {
    expect(hookUsageLimit(event, payload, NOW, 'UTC')).toBeNull();
  });

  it('a 1 MB hostile message is capped and read in well under 50 ms', () => {
    const p = stopFailure({ error: 'rate_limit', error_details: 'usage_limit_reached'.padEnd(1_000_000, 'x'), last_assistant_message: "You've hit your session limit · resets 3pm (UTC) " + 'resets '.repeat(150_000) });
    const s = hookUsageLimit('StopFailure', p, NOW, 'UTC');
    expect(fastestMs(() => hookUsageLimit('StopFailure', p, NOW, 'UTC'))).toBeLessThan(50);
    expect(s?.text.length).toBeLessThanOrEqual(200);
    expect(iso(s?.resetAtMs)).toBe('2026-07-15T15:00:00.000Z');
  });
});
