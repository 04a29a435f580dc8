// The soak's checkers for the network's faults on hand-made records, each holding where its
// invariant is kept and failing where it is broken; the limit the soak sets, in words the claude
// profile reads with the reset the soak meant; a limit answered once in the work log.
import { describe, expect, it } from 'vitest';
import { hookUsageLimit } from '../../../main/agents/claude/limit-hook.js';
import { PROFILES } from '../../../main/agents/profiles.js';
import { screenUsageLimit } from '../../../main/agents/usage-limit/limit-detect.js';
import { limitLine } from '../../../soak/faults/usage-limit.js';
import { checkInterruptions, checkNotStuck, type AgentRecord } from '../../../soak/invariants.js';
import { checkBackAfterNetwork, checkLimitInputs, checkLimitRelaunch, LIMIT_SEEN_GRACE_MS, limitedState, type FaultSpan } from '../../../soak/net-invariants.js';

const limit = (pid: number, at: number, resetAt: number): AgentRecord => ({ event: 'limit', pid, at, resetAt });
const input = (pid: number, at: number): AgentRecord => ({ event: 'input', pid, at, line: 'Mori resumed the session', mode: 'idle', since: at - 1_000 });

describe('nothing typed at a usage limit before its reset', () => {
  it('holds for the one nudge after the reset, one within the grace, and input into another process', () => {
    const records = [limit(1, 10_000, 70_000), input(1, 10_000 + LIMIT_SEEN_GRACE_MS - 500), input(2, 30_000), input(1, 71_000)];
    expect(checkLimitInputs(records)).toEqual([]);
  });

  it('fails on a nudge into the limited agent before its reset', () => {
    expect(checkLimitInputs([limit(1, 10_000, 70_000), input(1, 40_000)])).toEqual([expect.stringContaining('30 s before its reset')]);
  });
});

describe('no relaunch at a usage limit before its reset', () => {
  const start = (pid: number, at: number): AgentRecord => ({ event: 'start', pid, at });

  it("holds for the relaunch at the plan's time, one within the grace (the limit not read yet), and the person's start", () => {
    const records = [limit(1, 10_000, 70_000), start(2, 10_000 + LIMIT_SEEN_GRACE_MS - 500), start(3, 30_000), start(4, 72_000)];
    expect(checkLimitRelaunch(records, [[29_000, 35_000]])).toEqual([]);
  });

  it('fails on an agent started again before the reset (a restart of Mori that forgot the limit), named once', () => {
    const records = [limit(1, 10_000, 70_000), start(2, 20_000), limit(2, 20_100, 70_000)];
    expect(checkLimitRelaunch(records, [])).toEqual(['agent pid 2 started 50 s before its usage limit\'s reset']);
  });
});

describe('a limited session at the end', () => {
  it('is settled while its resume is ahead; without a plan or past its resume time it is stuck', () => {
    const now = 100_000;
    expect(limitedState('limited', { resumeAt: now + 5_000 }, now)).toBe('limited');
    expect(limitedState('running', null, now)).toBe('running');
    const states = [
      { name: 'a', state: limitedState('limited', { resumeAt: now + 5_000 }, now) },
      { name: 'b', state: limitedState('limited', null, now) },
      { name: 'c', state: limitedState('limited', { resumeAt: now - 40_000 }, now) },
    ];
    expect(checkNotStuck(states)).toEqual([expect.stringContaining('b is "limited without a plan"'), expect.stringContaining('c is "limited 40 s past its resume time"')]);
  });

  it('its limit is answered by one resume in the work log, kept across a restart of Mori; a second resume fails', () => {
    const log = (...l: string[]): string => l.map((x) => `## 2026-12-06 10:00\n${x}\n`).join('');
    const limited = [
      '- SESSION LIMITED - usage limit, resumes 10:02 (hook)',
      '- SESSION NOTE - the agent exited at its usage limit (signal SIGKILL); it resumes at the limit\'s time',
      '- SESSION LIMITED - usage limit, resumes 10:02 (kept from before Mori started)',
      '- SESSION RESUMED - after usage limit; agent relaunched',
    ];
    expect(checkInterruptions(log(...limited), true)).toEqual([]);
    expect(checkInterruptions(log(...limited, '- SESSION RESUMED - after usage limit; nudged'), true)).toEqual([expect.stringContaining('a second resume')]);
    expect(checkInterruptions(log(limited[0]!), true)).toEqual([expect.stringContaining('never answered')]);
  });
});

describe('back after the network returns', () => {
  const net = (i: number, at: number, endAt: number, kind = 'network'): FaultSpan => ({ i, kind, session: 0, at, endAt });
  const bound = 120_000;
  const session = (lines: number[], limits: number[] = []): { name: string; lines: number[]; limits: number[] } => ({ name: 's0', lines, limits });

  it('holds for a line within the bound of the return, and asks nothing while the network is down', () => {
    expect(checkBackAfterNetwork([net(0, 10_000, 30_000)], [session([5_000, 35_000])], bound)).toEqual([]);
    expect(checkBackAfterNetwork([net(0, 10_000, 30_000, 'api-outage')], [session([5_000, 31_000])], bound)).toEqual([]);
  });

  it('fails for a session that wrote again only past the bound', () => {
    expect(checkBackAfterNetwork([net(3, 10_000, 30_000)], [session([5_000, 30_000 + bound + 5_000])], bound)).toEqual([
      expect.stringContaining('s0 wrote again 125 s after the network of fault #3 was over'),
    ]);
  });

  it('leaves it to the next fault that hit the session within the bound, or to a limit met meanwhile', () => {
    const late = session([5_000, 30_000 + bound + 5_000]);
    const kill: FaultSpan = { i: 1, kind: 'kill-agent', session: 0, at: 60_000, endAt: 60_000 };
    expect(checkBackAfterNetwork([net(0, 10_000, 30_000), kill], [late], bound)).toEqual([]);
    // A kill of another session's agent does not hit this one.
    expect(checkBackAfterNetwork([net(0, 10_000, 30_000), { ...kill, session: 1 }], [late], bound)).toHaveLength(1);
    expect(checkBackAfterNetwork([net(0, 10_000, 30_000)], [session([5_000, 30_000 + bound + 5_000], [40_000])], bound)).toEqual([]);
  });
});

describe('the limit the soak sets', () => {
  it("is a line Claude Code's profile reads on screen and in its StopFailure hook, with the reset the soak meant", () => {
    const now = Date.UTC(2026, 11, 6, 23, 58, 30);
    for (const variant of [0, 1]) {
      const l = limitLine(now, 65_000, variant);
      // About a minute ahead (the clock form rounds up to its minute).
      expect(l.resetAt - now).toBeGreaterThanOrEqual(65_000);
      expect(l.resetAt - now).toBeLessThan(65_000 + 60_000);
      expect(screenUsageLimit(PROFILES.claude, `● Done.\n\n  ⎿  ${l.text}`, now, 'Europe/Paris')?.resetAtMs).toBe(l.resetAt);
      const hook = hookUsageLimit('StopFailure', { error: 'rate_limit', error_details: 'usage_limit_reached', last_assistant_message: l.text }, now, 'Europe/Paris');
      expect(hook?.resetAtMs).toBe(l.resetAt);
    }
    expect(limitLine(now, 65_000, 1).text).toBe("You've hit your session limit · resets 12:00am (UTC)");
    expect(limitLine(now, 65_000, 0).text).toBe(`Claude AI usage limit reached|${Math.ceil((now + 65_000) / 1000)}`);
  });
});
