// An agent that continues by itself after its usage limit's reset (Claude Code 2.1.332 sends the
// refused turn again at the reset on its own, with no new prompt, so its limit line stays on screen),
// on the real Supervisor with the in-memory backend and the manual clock: seen at work after the
// reset, the session leaves `limited` then, with one SESSION RESUMED saying the agent continued by
// itself, and nothing is ever typed, not at the planned time either. At work before the reset (the
// limited turn's own end) it stays limited. Its activity unseen (hooks only, a redraw missed), its
// transcript is read once at the planned time: an answer there stamped after the reset is the same
// sign, and nothing is typed; a refusal, an answer from before the reset, or one stamped in the future
// is not, and the nudge is typed as planned.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../common/ipc.js';
import { claudeTranscriptPath } from '../../../main/agents/claude/transcript.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { FakeBackend, type FakeTerminal } from '../../support/fakes/fake-backend.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';

/** The manual clock starts at 15:00 UTC; the limit resets at 15:05 UTC. */
const RESET_AT = Date.UTC(2026, 10, 30, 15, 5, 0);
const LIMIT_LINE = "You've hit your session limit · resets 3:05pm (UTC)";
/** A long jitter and the last slot: the planned resume lies minutes after the reset, as when the agent goes first. */
const JITTER_MS = 300_000;
const READ_MS = 50;
const SETTLE_MS = 400;
const DAY_MS = 24 * 60 * 60_000;

let h: SupervisorHarness;
let time: ManualTime;
let backend: FakeBackend;
let made: Supervisor[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-limit-continued');
  time = new ManualTime();
  backend = new FakeBackend();
  made = [];
});
afterEach(async () => {
  for (const s of made) await s.checkpointsSettled();
  await h.cleanup();
});

async function until(ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 3_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
const drain = (): Promise<void> => new Promise((r) => setTimeout(r, 50));
const info = (s: Supervisor, name: string): LiveSession => {
  const i = s.list().find((x) => x.name === name);
  if (!i) throw new Error(`no session ${name}`);
  return i;
};
const count = (text: string, needle: string): number => text.split(needle).length - 1;

async function limited(name: string): Promise<{ s: Supervisor; t: FakeTerminal; dir: string }> {
  const dir = await h.session(name);
  const s = h.supervisor({ env: h.env(), direct: backend, clock: time, scheduler: time, random: () => 0.999, verify: false, checkpointIntervalMs: DAY_MS, usageLimit: { jitterMs: JITTER_MS } });
  made.push(s);
  expect((await s.start()).ok).toBe(true);
  await until(() => backend.launches.length === 1 && info(s, name).state === 'running', 'the first launch');
  const t = backend.last;
  t.output(`❯ go on with the task\n  ⎿  ${LIMIT_LINE}\n${'─'.repeat(40)}\n❯ \n${'─'.repeat(40)}\n  ? for shortcuts\n`);
  time.advance(READ_MS);
  await until(() => info(s, name).state === 'limited', 'limited');
  time.advance(SETTLE_MS);
  await drain();
  return { s, t, dir };
}

/** Appends an entry to the session's Claude Code transcript, as the agent writes it. */
function transcript(dir: string, entry: Record<string, unknown>): void {
  const file = readSessionFile(dir);
  if (!file.ok || file.value.agent.sessionId === null) throw new Error('no agent session id');
  const at = claudeTranscriptPath(h.env(), file.value.agent.cwd ?? h.project, file.value.agent.sessionId);
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, `${JSON.stringify({ sessionId: file.value.agent.sessionId, ...entry })}\n`, { flag: 'a' });
}
const answer = (at: number): Record<string, unknown> => ({ type: 'assistant', timestamp: new Date(at).toISOString(), message: { role: 'assistant', content: [{ type: 'text', text: 'Wrote heron.' }] } });
const refusal = (at: number): Record<string, unknown> => ({ type: 'assistant', timestamp: new Date(at).toISOString(), isApiErrorMessage: true, error: 'rate_limit', apiErrorStatus: 429, message: { role: 'assistant', content: [{ type: 'text', text: LIMIT_LINE }] } });

/** Past the planned resume, the agent's activity never seen to change. */
async function pastPlan(s: Supervisor, name: string): Promise<void> {
  time.advance((info(s, name).usageLimit?.resumeAt ?? 0) + 1_000 - time.wallMs());
  await until(() => info(s, name).usageLimit === null, 'the plan taken');
  await drain();
}

/** The agent's spinner under the same turn (no new prompt line): it works. */
async function works(t: FakeTerminal): Promise<void> {
  t.output('\n✻ Working… (esc to interrupt)\n');
  time.advance(READ_MS);
  await drain();
  time.advance(SETTLE_MS);
  await drain();
}

describe('an agent that continues by itself after its usage limit', () => {
  it('at work after the reset, before the planned resume: leaves limited then, one SESSION RESUMED "continued by itself", nothing typed ever', async () => {
    const { s, t } = await limited('first');
    const plan = info(s, 'first').usageLimit;
    expect(plan?.resetAt).toBe(RESET_AT);
    expect(plan?.resumeAt ?? 0).toBeGreaterThan(RESET_AT + 4 * 60_000);
    // Claude Code's own tick: 30 s after the reset plus its 30–90 s.
    time.advance(RESET_AT + 75_000 - time.wallMs());
    await works(t);
    await until(() => info(s, 'first').state === 'running', 'running, not limited');
    expect(info(s, 'first').usageLimit).toBeNull();
    const log = h.workLog('first');
    expect(count(log, '- SESSION RESUMED -')).toBe(1);
    expect(log).toContain('SESSION RESUMED - after usage limit');
    expect(log).toContain('the agent continued by itself after its reset: nothing typed');
    // Its turn ends (back at its prompt, the old limit line still above) and the planned time passes: nothing more.
    t.output(`● Done.\n${'─'.repeat(40)}\n❯ \n${'─'.repeat(40)}\n`);
    time.advance(DAY_MS);
    await drain();
    expect(t.written.join('')).toBe('');
    expect(count(h.workLog('first'), '- SESSION RESUMED -')).toBe(1);
    expect(backend.launches).toHaveLength(1);
  });

  it.each([
    ['a minute after it went on', 90_000, RESET_AT],
    ['twenty minutes on (its clock time then read as tomorrow)', 20 * 60_000, RESET_AT + DAY_MS],
  ])('its old limit line reported again %s (the CLI redrew it): the limit it resumed from, not a new one; a new limit still is', async (_, afterMs, readAs) => {
    const { s, t } = await limited('redrawn');
    const text = info(s, 'redrawn').usageLimit?.text ?? '';
    time.advance(RESET_AT + 75_000 - time.wallMs());
    await works(t);
    await until(() => info(s, 'redrawn').state === 'running', 'running, not limited');
    time.advance(RESET_AT + afterMs - time.wallMs());
    // What the screen source reports when the CLI redraws the old conversation (Claude Code does,
    // ~90 s after it went on by itself), through the one entry every source uses.
    const again = s.reportUsageLimit('redrawn', { profile: 'claude', source: 'screen', resetAtMs: readAs, text });
    expect(again).toEqual({ ok: true, value: 'same-limit' });
    await drain();
    expect(info(s, 'redrawn').state).toBe('running');
    expect(count(h.workLog('redrawn'), '- SESSION LIMITED -')).toBe(1);
    // A limit met again names a later reset: that one is new, even in the same words (a reset in the same minute).
    const later = RESET_AT + afterMs + 30_000;
    const fresh = s.reportUsageLimit('redrawn', { profile: 'claude', source: 'screen', resetAtMs: later, text: afterMs < 60 * 60_000 ? text : "You've hit your session limit · resets 3:26pm (UTC)" });
    expect(fresh).toEqual({ ok: true, value: 'limited' });
    expect(info(s, 'redrawn').usageLimit?.resetAt).toBe(later);
    expect(t.written.join('')).toBe('');
  });

  it('at work before the reset (the limited turn still ending): stays limited', async () => {
    const { s, t } = await limited('early');
    await works(t);
    expect(info(s, 'early').state).toBe('limited');
    expect(count(h.workLog('early'), '- SESSION RESUMED -')).toBe(0);
  });

  it('its activity unseen, its transcript holding an answer stamped after the reset: at the planned time, one SESSION RESUMED "continued by itself", nothing typed', async () => {
    const { s, t, dir } = await limited('record');
    transcript(dir, refusal(RESET_AT - 60_000));
    transcript(dir, answer(RESET_AT + 75_000));
    await pastPlan(s, 'record');
    await until(() => info(s, 'record').state === 'running', 'running, not limited');
    const log = h.workLog('record');
    expect(count(log, '- SESSION RESUMED -')).toBe(1);
    expect(log).toContain('the agent continued by itself after its reset: nothing typed');
    expect(t.written.join('')).toBe('');
    expect(backend.launches).toHaveLength(1);
  });

  it.each([
    ['ending on the refusal', [answer(RESET_AT - 120_000), refusal(RESET_AT + 75_000)]],
    ['holding an answer from before the reset', [answer(RESET_AT - 1_000)]],
    ['holding an answer stamped in the future', [answer(RESET_AT + 30 * DAY_MS)]],
  ])('its transcript %s: the nudge is typed at the planned time', async (_, entries) => {
    const { s, t, dir } = await limited('nudged');
    for (const e of entries) transcript(dir, e);
    await pastPlan(s, 'nudged');
    await until(() => t.written.join('').includes('You were interrupted'), 'the nudge typed');
    expect(h.workLog('nudged')).not.toContain('continued by itself');
  });
});
