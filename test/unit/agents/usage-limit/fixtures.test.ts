// The usage-limit screens the real CLIs printed against their stand-ins
// (test/support/fixtures/agent-screens/*-usage-limit*.txt, captured by agents-real-usage-limits.test.ts) are
// read by screenUsageLimit, from the latest turn start down as the supervisor reads them, with the
// reset time each printed; opencode's answer to the same refusal is a retry of its own, no limit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import { currentTurnText } from '../../../../main/agents/screen-activity.js';
import { screenUsageLimit } from '../../../../main/agents/usage-limit/limit-detect.js';

const screen = (name: string): string => readFileSync(new URL(`../../../support/fixtures/agent-screens/${name}.txt`, import.meta.url), 'utf8');
/** The captures were made a few minutes before the resets they print. */
const CAPTURED = Date.parse('2026-12-01T05:10:00Z');

describe('usage-limit screens of the real CLIs', () => {
  it.each([
    ['claude', 'claude-usage-limit', "You've hit your 5-hour limit · resets 5:20am (UTC)", '2026-12-01T05:20:00.000Z'],
    ['codex', 'codex-usage-limit', 'You’ve hit your usage limit. Try again at 5:20 AM.', '2026-12-01T05:20:00.000Z'],
    ['gemini', 'gemini-usage-limit', 'Usage limit reached for gemini-3.5-flash-lite.', '2026-12-01T05:30:00.000Z'],
    ['gemini', 'gemini-usage-limit-daily', 'Usage limit reached for gemini-3.5-flash-lite.', null],
    // A plan's quota (Code Assist's QUOTA_EXHAUSTED): the dialog names the reset however near it is.
    ['gemini', 'gemini-usage-limit-plan', 'Usage limit reached for all Pro models.', '2026-12-01T06:07:00.000Z'],
  ] as const)('%s: %s', (profile, fixture, text, resetAt) => {
    const s = screenUsageLimit(PROFILES[profile], currentTurnText(PROFILES[profile].patterns, screen(fixture)), CAPTURED, 'UTC');
    expect(s?.text).toBe(text);
    expect(s?.resetAtMs == null ? null : new Date(s.resetAtMs).toISOString()).toBe(resetAt);
  });

  it('opencode: the Messages API\'s limit answer is a retry it makes by itself, not a limit line', () => {
    // opencode 1.18.33 shows the API's message with "[retrying in 26s attempt #5]" and retries with
    // backoff until the API accepts: nothing for Mori to wait out, so nothing is read as a limit.
    const text = screen('opencode-usage-limit');
    expect(text).toContain("This request would exceed your account's rate limit. Please try again later. [retrying in");
    expect(screenUsageLimit(PROFILES.opencode, currentTurnText(PROFILES.opencode.patterns, text), CAPTURED, 'UTC')).toBeNull();
  });
});
