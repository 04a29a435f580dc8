// Usage limits end to end (DESIGN.md §4): a real `mori up` with the fake agent, which prints its
// usage-limit line when typed `limit:TEXT`. The limit is read from the screen and `mori ls` shows it;
// Mori stopped and started again while limited (the reboot case) keeps the session limited, does not
// relaunch it early and resumes it once after the reset; a freeze through the reset (as a sleep
// freezes every process) is resumed once, by the wake. Reset times are a few seconds ahead (claude's
// epoch form, `usage limit reached|<seconds>`), the jitter bounded by MORI_LIMIT_JITTER_MS.
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../common/ipc.js';
import { clockWords } from '../../../common/session-view.js';
import { hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

/** The jitter after a reset here: a second, so a test waits seconds. */
const JITTER_MS = 1_000;

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

const count = (text: string, needle: string): number => text.split(needle).length - 1;

function live(harness: UpHarness, name: string): LiveSession | null {
  const r = harness.mori('ls', '--json');
  if (r.code !== 0) return null;
  const ls = JSON.parse(r.stdout) as { sessions: { name?: string; session?: { name: string }; live: LiveSession | null }[] };
  return ls.sessions.find((s) => s.live?.name === name)?.live ?? null;
}

/** A session of the fake agent, waiting at its prompt under a new `mori up`. */
async function waiting(name: string): Promise<{ harness: UpHarness; u: Up }> {
  const harness = (h = new UpHarness('limit', { MORI_LIMIT_JITTER_MS: String(JITTER_MS) }));
  harness.init(name, 'direct');
  const u = harness.up();
  await until('the agent to wait', () => hasEvent(u, 'session.activity', { to: 'waiting' }), u.stderr);
  return { harness, u };
}

/** Types `limit:TEXT` into the agent: its screen shows the limit; the session goes limited. */
async function hitLimit(harness: UpHarness, u: Up, name: string, text: string): Promise<LiveSession> {
  const sent = harness.mori('send', name, `limit:${text}`);
  expect(sent.code, sent.stderr).toBe(0);
  await until('limited', () => hasEvent(u, 'session.limited'), u.stderr);
  const info = live(harness, name);
  if (!info) throw new Error('no live session');
  return info;
}

describe('a usage limit read from the screen', () => {
  it('shows in `mori ls` as limited with its reset time; "Don\'t resume" leaves it stopped at its limit; "Resume now" resumes it', async () => {
    const { harness, u } = await waiting('lm');
    // Claude's words, in a named zone: the next 3:05-style time two minutes ahead, in UTC.
    const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 2 * 60_000);
    const hh = reset.getUTCHours();
    const clock = `${((hh + 11) % 12) + 1}:${String(reset.getUTCMinutes()).padStart(2, '0')}${hh < 12 ? 'am' : 'pm'}`;
    const info = await hitLimit(harness, u, 'lm', `You've hit your session limit · resets ${clock} (UTC)`);
    expect(info.state).toBe('limited');
    expect(info.usageLimit?.resetAt).toBe(reset.getTime());
    expect(info.usageLimit?.source).toBe('screen');
    const resumeAt = info.usageLimit?.resumeAt ?? 0;
    expect(resumeAt - reset.getTime()).toBeGreaterThanOrEqual(0);
    expect(resumeAt - reset.getTime()).toBeLessThanOrEqual(JITTER_MS);
    const ls = harness.mori('ls');
    expect(ls.stdout).toContain(`usage limit · resumes ${clockWords(resumeAt)}`);
    expect(harness.mori('status', 'lm').stdout).toContain(`usage limit · resumes ${clockWords(resumeAt)}`);
    expect(harness.workLog('lm')).toContain(`SESSION LIMITED - usage limit, resumes ${clockWords(resumeAt)} (screen)`);

    const dont = harness.mori('dont-resume', 'lm');
    expect(dont.code, dont.stderr).toBe(0);
    await until('stopped', () => live(harness, 'lm')?.state === 'stopped', u.stderr);
    expect(harness.mori('ls').stdout).toContain(`stopped at usage limit (resets ${clockWords(reset.getTime())})`);
    expect(harness.starts()).toHaveLength(1);

    // The person changes their mind: resumed now, by id, long before the reset.
    const now = harness.mori('resume-now', 'lm');
    expect(now.code, now.stderr).toBe(0);
    await until('the relaunch', () => harness.starts().length === 2, u.stderr);
    expect(harness.starts()[1]?.resumeId).toBe(harness.starts()[0]?.sessionId);
    await until('running', () => live(harness, 'lm')?.state === 'running', u.stderr);
    expect(live(harness, 'lm')?.usageLimit).toBeNull();
    expect(count(harness.workLog('lm'), '- SESSION RESUMED - after usage limit')).toBe(1);
  }, 90_000);

  it('keeps a limit across a stop and start of Mori: limited, not relaunched before its reset, resumed once by id after it', async () => {
    const { harness, u } = await waiting('rb');
    const resetSec = Math.ceil(Date.now() / 1000) + 10;
    const info = await hitLimit(harness, u, 'rb', `Claude AI usage limit reached|${resetSec}`);
    expect(info.usageLimit?.resetAt).toBe(resetSec * 1000);
    // Mori stops (its direct agent with it) and starts again, as after a reboot.
    u.child.kill('SIGTERM');
    await u.exited;
    const u2 = harness.up();
    await until('the supervisor', () => hasEvent(u2, 'supervisor.ready'), u2.stderr);
    const again = live(harness, 'rb');
    expect(again?.state).toBe('limited');
    expect(again?.usageLimit?.resumeAt).toBe(info.usageLimit?.resumeAt);
    expect(harness.starts()).toHaveLength(1);

    await until('the resume', () => harness.starts().length === 2, u2.stderr, 30_000);
    const [first, second] = harness.starts();
    expect(second?.at ?? 0).toBeGreaterThanOrEqual(resetSec * 1000);
    expect(second?.resumeId).toBe(first?.sessionId);
    await until('running', () => live(harness, 'rb')?.state === 'running', u2.stderr);
    // Nothing more: one resume, one relaunch.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(harness.starts()).toHaveLength(2);
    expect(count(harness.workLog('rb'), 'SESSION RESUMED - after usage limit')).toBe(1);
  }, 90_000);

  it('frozen through its reset (a sleep): resumed once, on the wake, with the agent nudged at its prompt', async () => {
    const { harness, u } = await waiting('sl');
    // The reset far enough ahead that a loaded machine has the agent at its prompt, and frozen, well
    // before it: a reset passing first resumes it unfrozen, which is another test.
    const resetSec = Math.ceil(Date.now() / 1000) + 10;
    await hitLimit(harness, u, 'sl', `Claude AI usage limit reached|${resetSec}`);
    // Frozen at its prompt, as a person's laptop closes on an agent waiting out its limit: frozen
    // mid-turn (a loaded machine is slow to draw the prompt), the wake finds it working and rightly
    // does not nudge it.
    let seen: LiveSession | null = null;
    await until(
      'at its prompt before the reset',
      () => (seen = live(harness, 'sl'))?.activity === 'waiting',
      () => `last seen ${JSON.stringify(seen && { state: seen.state, activity: seen.activity })}; ${u.stderr()}`,
      Math.max(1_000, resetSec * 1000 - 1_000 - Date.now()),
    );
    const agent = harness.starts()[0]?.pid ?? 0;
    const upPid = u.child.pid ?? 0;
    process.kill(-agent, 'SIGSTOP');
    process.kill(upPid, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, Math.max(0, resetSec * 1000 + JITTER_MS - Date.now()) + 6_000));
    process.kill(-agent, 'SIGCONT');
    process.kill(upPid, 'SIGCONT');
    await until('the resume', () => count(harness.workLog('sl'), 'SESSION RESUMED - after usage limit') === 1, u.stderr, 20_000);
    await until('running', () => live(harness, 'sl')?.state === 'running', u.stderr);
    expect(hasEvent(u, 'power.resume')).toBe(true);
    await new Promise((r) => setTimeout(r, 3_000));
    const log = harness.workLog('sl');
    expect(count(log, '- SESSION RESUMED -')).toBe(1);
    expect(u.lines().filter((e) => e['type'] === 'session.resumed')).toHaveLength(1);
    expect(log).toMatch(/SESSION RESUMED - after usage limit \(away \d+s\)[^\n]*nudged to continue/);
    expect(harness.starts()).toHaveLength(1);
  }, 90_000);

  it('a reset named in another year (`resets Jul 31, 2027`) is implausible: limited with the retry rule, not resumed within seconds', async () => {
    const { harness, u } = await waiting('far');
    const info = await hitLimit(harness, u, 'far', "You've hit your weekly limit · resets Jul 31, 2027, 2am (UTC)");
    expect(info.state).toBe('limited');
    expect(info.usageLimit?.resetAt).toBeNull();
    expect(harness.workLog('far')).toMatch(/SESSION LIMITED - usage limit, no reset time given; retrying \S+ \(screen; its reset 2027-07-31T02:00:00\.000Z is implausible, over 8 days away\)/);
    // The overflowed timer fired within a second; give it five.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(live(harness, 'far')?.state).toBe('limited');
    expect(count(harness.workLog('far'), '- SESSION RESUMED -')).toBe(0);
    expect(harness.starts()).toHaveLength(1);
  }, 60_000);
});
