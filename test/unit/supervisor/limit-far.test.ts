// A usage limit whose reset is far off, on the real Supervisor with the in-memory backend and the
// manual clock (which, as setTimeout does, fires a delay past 2^31−1 ms at once): a screen naming a
// reset over eight days away is limited with the retry rule and logged as implausible; a plan kept
// in session.json whose time is weeks ahead waits for it, and neither resumes within seconds. A far
// reset named while the session is limited already changes nothing and is noted once in the work log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../common/ipc.js';
import { clockWords } from '../../../common/session-view.js';
import { readSessionFile, updateSessionFile } from '../../../main/state/session-file.js';
import { LIMIT_JITTER_MS, LIMIT_RETRY_FIRST_MS } from '../../../main/supervisor/limits/limit-plan.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { FakeBackend, type FakeTerminal } from '../../support/fakes/fake-backend.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';

/** The activity monitor's read delay in the harness and its settle time, with room. */
const READ_MS = 50;
const SETTLE_MS = 400;
const DAY_MS = 24 * 60 * 60_000;
const NO_PERIODIC_CHECKPOINT_MS = DAY_MS;
/** Claude Code's words for a reset in another year (2.1.332: the year after the day when it differs). */
const FAR_LINE = "You've hit your weekly limit · resets Jul 31, 2027, 2am (UTC)";

let h: SupervisorHarness;
let time: ManualTime;
let backend: FakeBackend;
let made: Supervisor[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-limit-far');
  time = new ManualTime();
  backend = new FakeBackend();
  made = [];
});
afterEach(async () => {
  for (const s of made) await s.checkpointsSettled();
  await h.cleanup();
});

function supervisor(): Supervisor {
  const s = h.supervisor({ env: h.env(), direct: backend, clock: time, scheduler: time, random: () => 0.5, verify: false, checkpointIntervalMs: NO_PERIODIC_CHECKPOINT_MS });
  made.push(s);
  return s;
}

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
const resumes = (name: string): number => h.workLog(name).split('SESSION RESUMED - after usage limit').length - 1;

async function limited(name: string, line: string): Promise<{ s: Supervisor; dir: string; t: FakeTerminal }> {
  const dir = await h.session(name);
  const s = supervisor();
  expect((await s.start()).ok).toBe(true);
  await until(() => backend.launches.length === 1 && info(s, name).state === 'running', 'the first launch');
  const t = backend.last;
  t.output(`❯ go on with the task\n  ⎿  ${line}\n${'─'.repeat(40)}\n❯ \n${'─'.repeat(40)}\n  ? for shortcuts\n`);
  time.advance(READ_MS);
  await until(() => info(s, name).state === 'limited', 'limited');
  time.advance(SETTLE_MS);
  await drain();
  return { s, dir, t };
}

describe('a usage limit far off', () => {
  it('a reset over eight days ahead is taken as no reset time: the retry rule, logged as implausible, nothing resumed within seconds', async () => {
    const { s } = await limited('far', FAR_LINE);
    const at = time.wallMs() - READ_MS - SETTLE_MS;
    const plan = info(s, 'far').usageLimit;
    expect(plan).toMatchObject({ resetAt: null, source: 'screen', retries: 0 });
    expect(plan?.resumeAt ?? 0).toBeGreaterThanOrEqual(at + LIMIT_RETRY_FIRST_MS);
    expect(plan?.resumeAt ?? 0).toBeLessThanOrEqual(at + LIMIT_RETRY_FIRST_MS + LIMIT_JITTER_MS);
    const log = h.workLog('far');
    expect(log).toContain(`SESSION LIMITED - usage limit, no reset time given; retrying ${clockWords(plan?.resumeAt ?? 0)} (screen; its reset 2027-07-31T02:00:00.000Z is implausible, over 8 days away)`);
    time.advance(10_000);
    await drain();
    expect(info(s, 'far').state).toBe('limited');
    expect(resumes('far')).toBe(0);
  });

  it('a far reset named while already limited is ignored, and the work log says so once for that limit', async () => {
    const { s, t } = await limited('again', "You've hit your session limit · resets 3:05pm (UTC)");
    const plan = info(s, 'again').usageLimit;
    // The far line on a new turn, twice (gone in between, so the screen reports it each time).
    for (let k = 0; k < 2; k++) {
      t.output(`\n❯ go on\n  ⎿  ${FAR_LINE}\n${'─'.repeat(40)}\n❯ \n`);
      time.advance(READ_MS + SETTLE_MS);
      await drain();
      t.output(`\n❯ and on\n● Done.\n${'─'.repeat(40)}\n❯ \n`);
      time.advance(READ_MS + SETTLE_MS);
      await drain();
    }
    expect(info(s, 'again')).toMatchObject({ state: 'limited', usageLimit: plan });
    const log = h.workLog('again');
    const note = `SESSION NOTE - a reset 2027-07-31T02:00:00.000Z from the screen ignored: implausible, over 8 days away (usage limit, resumes ${clockWords(plan?.resumeAt ?? 0)})`;
    expect(log.split(note).length - 1, log).toBe(1);
    expect(log.split('SESSION LIMITED').length - 1).toBe(1);
  });

  it('a plan kept in session.json whose time is 30 days ahead waits for it after a restart of Mori', async () => {
    // A week ahead (believable), then moved 30 days ahead in the file while Mori is down.
    const { s, dir } = await limited('kept', "You've hit your weekly limit · resets Dec 7, 3pm (UTC)");
    await s.shutdown();
    const resumeAt = time.wallMs() + 30 * DAY_MS;
    const moved = updateSessionFile(dir, (f) => ({ ...f, usageLimit: f.usageLimit && { ...f.usageLimit, resetAt: resumeAt, resumeAt } }));
    expect(moved.ok).toBe(true);
    const next = supervisor();
    expect((await next.start()).ok).toBe(true);
    await drain();
    expect(info(next, 'kept')).toMatchObject({ state: 'limited' });
    time.advance(10_000);
    await drain();
    expect(backend.launches).toHaveLength(1);
    expect(resumes('kept')).toBe(0);
    time.advance(resumeAt - time.wallMs() - 1);
    await drain();
    expect(backend.launches).toHaveLength(1);
    time.advance(1);
    await until(() => resumes('kept') === 1, 'the resume at its time');
    const file = readSessionFile(dir);
    expect(file.ok && file.value.usageLimit).toBeNull();
  });
});
