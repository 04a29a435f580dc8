// A session at its agent's usage limit, on the real Supervisor with the in-memory backend and the
// manual clock: a limit read from the screen makes it `limited` with its reset time, it resumes exactly
// once after the reset (plus at most the jitter), as the agent is found (typed the nudge at its prompt,
// left alone when busy, relaunched by id when not running); a limit met again is limited again and
// never a crash; a limit with no reset time retries with a doubling interval; ten sessions limited
// together resume at least a second apart; the person's resume-now and dont-resume; a restart of Mori
// and a sleep through the reset each lead to one resume.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../common/ipc.js';
import { clockWords, preciseState, sessionStatus } from '../../../common/session-view.js';
import type { UsageLimitSignal } from '../../../main/agents/usage-limit/usage-limit-signal.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { LIMIT_JITTER_MS, LIMIT_MIN_GAP_MS, LIMIT_RETRY_FIRST_MS } from '../../../main/supervisor/limits/limit-plan.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { FakeBackend, type FakeTerminal } from '../../support/fakes/fake-backend.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { SupervisorHarness } from '../../support/supervisor-harness.js';
import { row } from '../../support/session-rows.js';

/** The manual clock starts at 15:00 UTC; the screen's limit resets at 15:05 UTC. */
const RESET_AT = Date.UTC(2026, 10, 30, 15, 5, 0);
const LIMIT_LINE = "You've hit your session limit · resets 3:05pm (UTC)";
/** The activity monitor's read delay in the harness (FAST_ACTIVITY) and its settle time, with room. */
const READ_MS = 50;
const SETTLE_MS = 400;
/** `--resume <id>` wherever it stands among the launch's arguments (the hooks' `--settings` come first). */
const resumeArgs = (args: readonly string[]): string[] => args.slice(args.indexOf('--resume'), args.indexOf('--resume') + 2);
const NO_PERIODIC_CHECKPOINT_MS = 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

let h: SupervisorHarness;
let time: ManualTime;
let backend: FakeBackend;
let made: Supervisor[] = [];

beforeEach(() => {
  h = new SupervisorHarness('sup-limit');
  time = new ManualTime();
  backend = new FakeBackend();
  made = [];
});
afterEach(async () => {
  for (const s of made) await s.checkpointsSettled();
  await h.cleanup();
});

function supervisor(random: () => number = () => 0.5): Supervisor {
  const s = h.supervisor({ env: h.env(), direct: backend, clock: time, scheduler: time, random, verify: false, checkpointIntervalMs: NO_PERIODIC_CHECKPOINT_MS });
  made.push(s);
  return s;
}

/** Waits (real time, bounded) for what the supervisor does asynchronously after the manual clock moved. */
async function until(ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 3_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Manual time's step while a nudge is typed: under typing's 100 ms poll and 150 ms pause before Enter. */
const TYPING_STEP_MS = 10;

/** As `until`, for a wait that includes typing: typing pauses on the manual clock, so it moves on in small steps meanwhile. */
async function untilTyped(ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 3_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
    time.advance(TYPING_STEP_MS);
  }
}

/** Lets pending async steps (a resume, a relaunch) run to their end with the clock still. */
const drain = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

const info = (s: Supervisor, name: string): LiveSession => {
  const i = s.list().find((x) => x.name === name);
  if (!i) throw new Error(`no session ${name}`);
  return i;
};

/** The fake agent's terminal echoes what is typed into it as a turn and goes busy on Enter, as claude does. */
function echoing(t: FakeTerminal): FakeTerminal {
  const write = t.write.bind(t);
  t.write = (data: string) => {
    write(data);
    const text = data.replace(/\x1b\[20[01]~/g, '');
    if (text.includes('\r')) t.output('\n✻ Working… (esc to interrupt)\n');
    else if (text !== '') t.output(`\n❯ ${text}`);
  };
  return t;
}

const typed = (t: FakeTerminal): string => t.written.join('');

/** The agent's conversation on disk (claude's transcript), so a relaunch resumes it by id rather than starting afresh. */
function keepTranscript(dir: string): string {
  const file = readSessionFile(dir);
  if (!file.ok || file.value.agent.sessionId === null) throw new Error('no agent session id');
  const cwd = file.value.agent.cwd ?? path.dirname(path.dirname(dir));
  const projects = path.join(h.tmp, 'claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(projects, { recursive: true });
  writeFileSync(path.join(projects, `${file.value.agent.sessionId}.jsonl`), `${JSON.stringify({ type: 'user', text: 'go', sessionId: file.value.agent.sessionId, cwd })}\n`);
  return file.value.agent.sessionId;
}

/** Its screen ends a turn on the usage-limit line, at the prompt (as Claude Code shows it). */
function showLimit(t: FakeTerminal, line = LIMIT_LINE): void {
  t.output(`❯ go on with the task\n  ⎿  ${line}\n${'─'.repeat(40)}\n❯ \n${'─'.repeat(40)}\n  ? for shortcuts\n`);
}

async function running(name: string, random?: () => number): Promise<{ s: Supervisor; dir: string; t: FakeTerminal }> {
  const dir = await h.session(name);
  const s = supervisor(random);
  expect((await s.start()).ok).toBe(true);
  await until(() => backend.launches.length === 1 && info(s, name).state === 'running', 'the first launch');
  return { s, dir, t: echoing(backend.last) };
}

/** Shows the limit and lets the activity monitor read it: the session is limited. */
async function limited(s: Supervisor, name: string, t: FakeTerminal, line = LIMIT_LINE): Promise<LiveSession> {
  showLimit(t, line);
  time.advance(READ_MS);
  await until(() => info(s, name).state === 'limited', 'limited');
  time.advance(SETTLE_MS);
  await drain();
  return info(s, name);
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;
const resumedEntries = (name: string): number => count(h.workLog(name), 'SESSION RESUMED - after usage limit');

describe('a session at its usage limit', () => {
  it('is limited with its reset time, resumes exactly once after the reset (nudged at its prompt), then nothing more', async () => {
    const { s, dir, t } = await running('lim');
    const i = await limited(s, 'lim', t);
    const plan = i.usageLimit;
    expect(plan).toMatchObject({ resetAt: RESET_AT, source: 'screen', text: LIMIT_LINE, retries: 0 });
    if (!plan) throw new Error('no plan');
    expect(plan.resumeAt).toBeGreaterThanOrEqual(RESET_AT);
    expect(plan.resumeAt).toBeLessThanOrEqual(RESET_AT + LIMIT_JITTER_MS);
    expect(preciseState(i)).toBe(`usage limit · resumes ${clockWords(plan.resumeAt)}`);
    expect(sessionStatus(row('lim', i)).level).toBe('needs-you');
    // The plan is in session.json (a restart of Mori keeps it); the work log says so once.
    const file = readSessionFile(dir);
    expect(file.ok && file.value.usageLimit).toEqual(plan);
    expect(file.ok && file.value.intent).toEqual({ kind: 'interrupted', reason: 'usage-limit' });
    expect(h.workLog('lim')).toContain(`SESSION LIMITED - usage limit, resumes ${clockWords(plan.resumeAt)} (screen)`);
    expect(h.events.filter((e) => e.type === 'session.limited')).toHaveLength(1);

    // A millisecond before its time: nothing typed, still limited.
    time.advance(plan.resumeAt - time.wallMs() - 1);
    await drain();
    expect(typed(t)).toBe('');
    expect(info(s, 'lim').state).toBe('limited');

    time.advance(1);
    await untilTyped(() => resumedEntries('lim') === 1, 'the resume');
    await until(() => info(s, 'lim').state === 'running', 'running again');
    expect(typed(t)).toContain('You were interrupted');
    expect(info(s, 'lim').usageLimit).toBeNull();
    const after = readSessionFile(dir);
    expect(after.ok && after.value.usageLimit).toBeNull();

    // Nothing more: a day later still one resume, one launch, one nudge.
    const writes = t.written.length;
    time.advance(DAY_MS);
    await drain();
    expect(resumedEntries('lim')).toBe(1);
    expect(backend.launches).toHaveLength(1);
    expect(t.written).toHaveLength(writes);
  });

  it('keeps the reset a relative line named first while the line is redrawn: no drift, one log line', async () => {
    const { s, t } = await running('rel');
    const at = time.wallMs();
    // opencode's retry line ("It will reset in 2 minutes … [retrying in 58s attempt #1]") is redrawn each second.
    const line = (left: number): string => `You've hit your session limit · resets in 5 minutes [retrying in ${left}s attempt #1]`;
    // Read one activity read after it was shown.
    const first = at + READ_MS + 5 * 60_000;
    expect((await limited(s, 'rel', t, line(300))).usageLimit?.resetAt).toBe(first);
    for (const left of [290, 280, 270]) {
      time.advance(10_000 - READ_MS);
      showLimit(t, line(left));
      time.advance(READ_MS);
      await drain();
    }
    expect(info(s, 'rel').usageLimit?.resetAt).toBe(first);
    expect(count(h.workLog('rel'), 'SESSION LIMITED')).toBe(1);
    expect(h.events.filter((e) => e.type === 'session.limited')).toHaveLength(1);
  });

  it('types nothing into an agent that went on by itself (busy at the reset) and clears the limit', async () => {
    const { s, t } = await running('busy');
    const plan = (await limited(s, 'busy', t)).usageLimit;
    if (!plan) throw new Error('no plan');
    // Newer Claude Code continues by itself once the limit resets.
    t.output('❯ continue\n✻ Working… (esc to interrupt)\n');
    time.advance(READ_MS);
    await drain();
    time.advance(SETTLE_MS);
    await until(() => info(s, 'busy').activity === 'working', 'working');
    time.advance(plan.resumeAt - time.wallMs());
    await until(() => resumedEntries('busy') === 1, 'the resume');
    expect(typed(t)).toBe('');
    expect(info(s, 'busy').state).toBe('running');
    expect(info(s, 'busy').usageLimit).toBeNull();
    expect(h.workLog('busy')).toContain('SESSION RESUMED - after usage limit; agent still running (working)');
  });

  it('types nothing into an agent back at its prompt without its limit line at the reset (it went on by itself)', async () => {
    const { s, t } = await running('self');
    const plan = (await limited(s, 'self', t)).usageLimit;
    if (!plan) throw new Error('no plan');
    // opencode retries at the reset by itself; its answer came before Mori's time.
    t.output(`❯ go on\n  Done.\n${'─'.repeat(40)}\n❯ \n${'─'.repeat(40)}\n  ? for shortcuts\n`);
    time.advance(plan.resumeAt - time.wallMs());
    await until(() => resumedEntries('self') === 1, 'the resume');
    expect(typed(t)).toBe('');
    expect(info(s, 'self').state).toBe('running');
    expect(info(s, 'self').usageLimit).toBeNull();
    expect(h.workLog('self')).toContain('the agent went on by itself past its limit');
  });

  it('relaunches an agent that is not running by its resume command and id, at the planned time and not before', async () => {
    const { s, dir, t } = await running('dead');
    const plan = (await limited(s, 'dead', t)).usageLimit;
    if (!plan) throw new Error('no plan');
    t.exitWith(1);
    await drain();
    // Its exit at the limit is no crash: still limited, nothing relaunched, no crash recorded.
    expect(info(s, 'dead').state).toBe('limited');
    time.advance(plan.resumeAt - time.wallMs() - 1);
    await drain();
    expect(backend.launches).toHaveLength(1);

    const agentId = keepTranscript(dir);
    time.advance(1);
    await until(() => backend.launches.length === 2 && info(s, 'dead').state === 'running', 'the relaunch');
    const file = readSessionFile(dir);
    expect(resumeArgs(backend.last.options.args)).toEqual(['--resume', agentId]);
    expect(file.ok && file.value.restartHistory).toEqual([]);
    expect(resumedEntries('dead')).toBe(1);
  });

  it('is limited again by a limit met right after its resume, with the new reset time, and never counts it as a crash', async () => {
    const { s, dir, t } = await running('again');
    const first = (await limited(s, 'again', t)).usageLimit;
    if (!first) throw new Error('no plan');
    time.advance(first.resumeAt - time.wallMs());
    await untilTyped(() => info(s, 'again').state === 'running', 'the resume');
    const second = (await limited(s, 'again', t, "You've hit your session limit · resets 8:00pm (UTC)")).usageLimit;
    expect(second).toMatchObject({ resetAt: Date.UTC(2026, 10, 30, 20, 0, 0), retries: 1 });
    expect(count(h.workLog('again'), 'SESSION LIMITED - usage limit')).toBe(2);
    const file = readSessionFile(dir);
    expect(file.ok && file.value.restartHistory).toEqual([]);
    expect(h.events.filter((e) => e.type === 'session.interrupted' || e.type === 'session.attention')).toEqual([]);
    expect(backend.launches).toHaveLength(1);
  });

  it('with no reset time, retries after 15 minutes, then 30, then 60 while resumes keep meeting the limit', async () => {
    const { s, t } = await running('noreset');
    const signal: UsageLimitSignal = { profile: 'claude', source: 'hook', resetAtMs: null, text: 'usage limit reached' };
    t.exitWith(1); // not running: each resume is a relaunch, nothing to type
    await drain();
    const waits: number[] = [];
    for (let k = 0; k < 3; k++) {
      const r = s.reportUsageLimit('noreset', signal);
      expect(r.ok && r.value).toBe('limited');
      const i = info(s, 'noreset');
      const plan = i.usageLimit;
      if (!plan) throw new Error('no plan');
      expect(preciseState(i)).toBe(`usage limit · retrying ${clockWords(plan.resumeAt)}`);
      waits.push(plan.resumeAt - plan.detectedAt);
      if (k === 0) backend.last.exitWith(1);
      time.advance(plan.resumeAt - time.wallMs());
      await until(() => info(s, 'noreset').state === 'running', 'the retry');
      time.advance(1_000);
    }
    for (const [k, wait] of waits.entries()) {
      expect(wait).toBeGreaterThanOrEqual(LIMIT_RETRY_FIRST_MS * 2 ** k);
      expect(wait).toBeLessThanOrEqual(LIMIT_RETRY_FIRST_MS * 2 ** k + LIMIT_JITTER_MS);
    }
    expect(resumedEntries('noreset')).toBe(3);
  });

  it('spreads ten sessions limited at once: every resume within the jitter, no two within a second, each once', async () => {
    const names = Array.from({ length: 10 }, (_, k) => `ten-${k}`);
    for (const n of names) await h.session(n);
    // The same "random" draw for every session: without the spreading rule they would all resume together.
    const s = supervisor(() => 0.5);
    expect((await s.start()).ok).toBe(true);
    await until(() => backend.launches.length === 10 && names.every((n) => info(s, n).state === 'running'), 'ten launches');
    for (const n of names) s.reportUsageLimit(n, { profile: 'claude', source: 'screen', resetAtMs: RESET_AT, text: LIMIT_LINE });
    const at = names.map((n) => info(s, n).usageLimit?.resumeAt ?? NaN).sort((a, b) => a - b);
    for (const x of at) {
      expect(x).toBeGreaterThanOrEqual(RESET_AT);
      expect(x).toBeLessThanOrEqual(RESET_AT + LIMIT_JITTER_MS);
    }
    for (let k = 1; k < at.length; k++) expect((at[k] ?? 0) - (at[k - 1] ?? 0)).toBeGreaterThanOrEqual(LIMIT_MIN_GAP_MS);
    time.advance(RESET_AT + LIMIT_JITTER_MS - time.wallMs());
    await until(() => names.every((n) => info(s, n).state === 'running'), 'ten resumes');
    time.advance(DAY_MS);
    await drain();
    for (const n of names) expect(resumedEntries(n), n).toBe(1);
  });

  it("resumes now when the person says so, and the planned time then does nothing more", async () => {
    const { s, t } = await running('now');
    await limited(s, 'now', t);
    expect((await s.limitChoice('now', 'resume-now')).ok).toBe(true);
    await untilTyped(() => resumedEntries('now') === 1 && info(s, 'now').state === 'running', 'the resume');
    expect(typed(t)).toContain('You were interrupted');
    time.advance(DAY_MS);
    await drain();
    expect(resumedEntries('now')).toBe(1);
    // Not at a limit any more: nothing to resume now.
    const again = await s.limitChoice('now', 'resume-now');
    expect(again.ok ? 'ok' : again.code).toBe('conflict');
  });

  it("does not resume when the person says so: stopped at its limit, read as such, until they resume it", async () => {
    const { s, dir, t } = await running('dont');
    const plan = (await limited(s, 'dont', t)).usageLimit;
    if (!plan) throw new Error('no plan');
    const r = await s.limitChoice('dont', 'dont-resume');
    expect(r.ok && r.value.state).toBe('stopped');
    await drain();
    const i = info(s, 'dont');
    expect(i.state).toBe('stopped');
    expect(preciseState(i)).toBe(`stopped at usage limit (resets ${clockWords(RESET_AT)})`);
    const file = readSessionFile(dir);
    expect(file.ok && file.value.intent).toEqual({ kind: 'user-stopped' });
    time.advance(DAY_MS);
    await drain();
    expect(backend.launches).toHaveLength(1);
    expect(resumedEntries('dont')).toBe(0);

    const agentId = keepTranscript(dir);
    expect((await s.limitChoice('dont', 'resume-now')).ok).toBe(true);
    await until(() => backend.launches.length === 2 && info(s, 'dont').state === 'running', 'the relaunch');
    expect(resumeArgs(backend.last.options.args)).toEqual(['--resume', agentId]);
  });

  it('after a restart of Mori keeps the plan: limited, not relaunched before its time, relaunched by id at it', async () => {
    const { s, dir, t } = await running('reboot');
    const agentId = keepTranscript(dir);
    const plan = (await limited(s, 'reboot', t)).usageLimit;
    if (!plan) throw new Error('no plan');
    await s.shutdown();
    const next = supervisor();
    expect((await next.start()).ok).toBe(true);
    await drain();
    expect(info(next, 'reboot')).toMatchObject({ state: 'limited', usageLimit: plan });
    expect(backend.launches).toHaveLength(1);
    time.advance(plan.resumeAt - time.wallMs() - 1);
    await drain();
    expect(backend.launches).toHaveLength(1);
    time.advance(1);
    await until(() => backend.launches.length === 2 && info(next, 'reboot').state === 'running', 'the relaunch');
    expect(resumeArgs(backend.last.options.args)).toEqual(['--resume', agentId]);
    time.advance(DAY_MS);
    await drain();
    expect(backend.launches).toHaveLength(2);
    expect(resumedEntries('reboot')).toBe(1);
  });

  it('asleep through its time: resumed once by the wake, not again by its timer; a wake before its time keeps the wall-clock time', async () => {
    const { s, t } = await running('sleepy');
    const plan = (await limited(s, 'sleepy', t)).usageLimit;
    if (!plan) throw new Error('no plan');
    // A short sleep well before the reset: on wake the timer counts on the wall clock, not from before the sleep.
    s.setAsleep(true);
    time.sleep(60_000);
    s.setAsleep(false);
    time.advance(plan.resumeAt - time.wallMs());
    await untilTyped(() => resumedEntries('sleepy') === 1, 'the resume at its wall-clock time');
    await until(() => info(s, 'sleepy').state === 'running', 'running');

    // Limited again, then asleep through the reset: the wake's resume is the one resume.
    const second = (await limited(s, 'sleepy', t, "You've hit your session limit · resets 8:00pm (UTC)")).usageLimit;
    if (!second) throw new Error('no plan');
    s.setAsleep(true);
    time.sleep(second.resumeAt - time.wallMs() + 10 * 60_000);
    s.setAsleep(false);
    expect(info(s, 'sleepy').state).toBe('limited');
    await s.resumeSession('sleepy', 'sleep', { awayMs: 10 * 60_000, checks: null });
    await untilTyped(() => resumedEntries('sleepy') === 2, 'the wake resume');
    time.advance(DAY_MS);
    await drain();
    expect(resumedEntries('sleepy')).toBe(2);
    expect(backend.launches).toHaveLength(1);
  });
});
