// The usage-limit policy's choice: the session's own policy before the daemon's default, never the
// agent that hit the limit as its own fallback.
import { describe, expect, it } from 'vitest';
import { OnUsageLimit } from '../../../../common/session.js';
import { limitFallback, limitHandoffReason } from '../../../../main/supervisor/limits/limit-fallback.js';

const session = (profile: 'claude' | 'codex', onUsageLimit?: string) => ({ agent: { profile, previousIds: [], sessionId: null, cwd: null }, ...(onUsageLimit ? { onUsageLimit } : {}) });

describe('limitFallback', () => {
  it('waits by default, hands off as the session or else the daemon says, and never to the agent at its limit', () => {
    expect(limitFallback(session('claude'))).toBeNull();
    expect(limitFallback(session('claude', 'handoff:codex'))).toBe('codex');
    expect(limitFallback(session('claude'), 'handoff:gemini')).toBe('gemini');
    expect(limitFallback(session('claude', 'wait'), 'handoff:gemini')).toBeNull();
    expect(limitFallback(session('codex', 'handoff:codex'))).toBeNull();
  });

  it('takes agent profiles only: shell and custom run a command approved apart', () => {
    expect(OnUsageLimit.safeParse('handoff:codex').success).toBe(true);
    for (const bad of ['handoff:shell', 'handoff:custom', 'handoff:', 'handoff:nope', 'later']) expect(OnUsageLimit.safeParse(bad).success, bad).toBe(false);
  });

  it('names the reset in the reason when known', () => {
    expect(limitHandoffReason(null)).toBe('usage limit reached');
    expect(limitHandoffReason(Date.UTC(2026, 0, 1, 14, 0))).toMatch(/^usage limit reached, resets \d/);
  });
});
