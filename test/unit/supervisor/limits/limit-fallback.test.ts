// The usage-limit policy's choices: the session's own policy before the daemon's default, never the
// agent that hit the limit as its own fallback, back at the reset unless it says stay; and at the
// reset, whether a session handed over goes back.
import { describe, expect, it } from 'vitest';
import { OnUsageLimit, type HandedOver, type SessionRecord } from '../../../../common/session.js';
import { handBackDue, limitFallback, limitHandoffReason } from '../../../../main/supervisor/limits/limit-fallback.js';

const session = (profile: 'claude' | 'codex', onUsageLimit?: string) => ({ agent: { profile, previousIds: [], sessionId: null, cwd: null }, ...(onUsageLimit ? { onUsageLimit } : {}) });

describe('limitFallback', () => {
  it('waits by default, hands off as the session or else the daemon says, and never to the agent at its limit', () => {
    expect(limitFallback(session('claude'))).toBeNull();
    expect(limitFallback(session('claude', 'handoff:codex'))).toEqual({ to: 'codex', atReset: 'back' });
    expect(limitFallback(session('claude'), 'handoff:gemini')).toEqual({ to: 'gemini', atReset: 'back' });
    expect(limitFallback(session('claude', 'wait'), 'handoff:gemini')).toBeNull();
    expect(limitFallback(session('codex', 'handoff:codex'))).toBeNull();
    expect(limitFallback(session('codex', 'handoff:codex:stay'))).toBeNull();
  });

  it('goes back at the reset by default or when it says back, and stays when it says stay', () => {
    expect(limitFallback(session('claude', 'handoff:codex:back'))).toEqual({ to: 'codex', atReset: 'back' });
    expect(limitFallback(session('claude', 'handoff:codex:stay'))).toEqual({ to: 'codex', atReset: 'stay' });
    expect(limitFallback(session('claude'), 'handoff:codex:stay')).toEqual({ to: 'codex', atReset: 'stay' });
  });

  it('takes agent profiles only: shell and custom run a command approved apart', () => {
    expect(OnUsageLimit.safeParse('handoff:codex').success).toBe(true);
    expect(OnUsageLimit.safeParse('handoff:codex:stay').success).toBe(true);
    expect(OnUsageLimit.safeParse('handoff:codex:back').success).toBe(true);
    for (const bad of ['handoff:shell', 'handoff:custom', 'handoff:', 'handoff:nope', 'later', 'handoff:codex:', 'handoff:codex:later', 'handoff:shell:stay', 'wait:stay']) expect(OnUsageLimit.safeParse(bad).success, bad).toBe(false);
  });

  it('names the reset in the reason when known', () => {
    expect(limitHandoffReason(null)).toBe('usage limit reached');
    expect(limitHandoffReason(Date.UTC(2026, 0, 1, 14, 0))).toMatch(/^usage limit reached, resets \d/);
  });
});

describe('handBackDue', () => {
  const h: HandedOver = { from: 'claude', fromId: 'a', fromCwd: null, to: 'codex', at: 1_000, until: 10_000, resetAt: 9_000, checkpoint: null };
  const handed = (over: Partial<HandedOver> | null, profile: 'claude' | 'codex' = 'codex', intent: 'running' | 'user-stopped' | 'finished' | 'limited' = 'running'): Pick<SessionRecord, 'agent' | 'intent' | 'handedOver'> => ({
    agent: { profile, previousIds: [], sessionId: null, cwd: null },
    intent: intent === 'limited' ? { kind: 'interrupted', reason: 'usage-limit' } : { kind: intent },
    handedOver: over === null ? null : { ...h, ...over },
  });

  it('waits for the planned time, then goes back to the first agent, even while the other waits out a limit of its own', () => {
    expect(handBackDue(handed({}), 9_999)).toEqual({ kind: 'wait', atMs: 10_000 });
    expect(handBackDue(handed({}), 10_000)).toEqual({ kind: 'back', to: 'claude' });
    expect(handBackDue(handed({}, 'codex', 'limited'), 20_000)).toEqual({ kind: 'back', to: 'claude' });
  });

  it('does nothing when not handed over, handed on since, or stopped by the person', () => {
    expect(handBackDue(handed(null), 20_000)).toEqual({ kind: 'none' });
    expect(handBackDue(handed({}, 'claude'), 20_000)).toEqual({ kind: 'none' });
    expect(handBackDue(handed({ from: 'codex' }), 20_000)).toEqual({ kind: 'none' });
    expect(handBackDue(handed({}, 'codex', 'user-stopped'), 20_000)).toEqual({ kind: 'none' });
    expect(handBackDue(handed({}, 'codex', 'finished'), 20_000)).toEqual({ kind: 'none' });
  });
});
