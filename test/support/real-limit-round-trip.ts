// A real agent CLI's usage limit waited out under a real `mori up` (tmux backend), end to end: the
// first turn is answered; the loopback stand-in then refuses as over the limit with a reset on a whole
// minute ~1 minute ahead and the person's next message meets it; `mori ls --json` must show the
// session `limited` with that reset; at the reset the stand-in accepts again and Mori must resume the
// agent exactly once, its next request carrying the conversation from before the limit. `again`
// keeps the API refusing at the reset with a later one: the resume meets a second limit and the
// session must be `limited` again with the new reset, not crashed or restarted. `retriesItself` is
// for a CLI that waits for the reset and sends the refused turn again on its own (opencode): that retry
// is the resumed request, and Mori's resume finds it gone on and types nothing. Used by the
// agents-real-limit-*.test.ts files, one CLI per file so vitest runs them side by side.
import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import type { LiveSession } from '../../common/ipc.js';
import { clockWords } from '../../common/session-view.js';
import { screen, sessionJson } from './agent-clis/real-agents.js';
import { DEADLINE_MS, hasEvent, UpHarness } from './mori-up.js';
import { until } from '../../testkit/until.js';

/** A word only the task holds, so a request carrying it carries the first turn. */
export const TASK = 'write the word pelican into notes.txt';
const TASK_WORD = 'pelican';
/** The message typed while the API refuses: the turn that meets the limit. */
const SECOND = 'now write the word heron into notes.txt';
/** The start of the profiles' nudge (agents/first-prompt.ts): the resume typed into the live agent. */
const NUDGE = 'You were interrupted';
const MINUTE_MS = 60_000;
/** The reset at least this far ahead (then up to the next whole minute): room for the limit screen before it. */
const LEAD_MS = 40_000;
/** A CLI's start and first answer on a busy 2-core machine. */
const CLI_START_MS = DEADLINE_MS * 2;
/** After the reset (no jitter here): the resume's timer, the typing and the CLI's request. */
const RESUME_MS = DEADLINE_MS;
/** A request typed or sent at the later of the two resumes reaches the stand-in within this (the typing, a busy machine). */
const SETTLED_MS = 10_000;
/** Claude Code's own continuation comes no sooner than this after the reset (its 30–90 s wait, then its 30 s tick). */
const CLI_OWN_EARLIEST_MS = 30_000;
/** The whole round trip: start, up to 100 s to the reset, the resume and its answer. */
export const ROUND_TRIP_TIMEOUT_MS = 170_000;

/** The CLI under test against its stand-in. */
export interface LimitRig {
  /** Starts the API refusing as over the limit until `epochMs` (the refusal names it); null accepts again. */
  limitUntil(epochMs: number | null): void;
  /** The model requests (the agent's turns): body as text and when it came, oldest first. */
  turns(): { text: string; at: number }[];
  /** Text of an earlier answer of the stand-in, found in a request that carries the conversation. */
  replyWords: string;
}

export interface LimitOptions {
  /** The stand-in refuses again at the reset with a reset a minute later. */
  again?: boolean;
  /** The CLI's start and first answer (default CLI_START_MS). */
  startMs?: number;
  /** How much later than the API's reset the CLI's words may put it (a relative duration rounded up to minutes); 0: exactly it. */
  resetSlackMs?: number;
  /** The reset this far ahead (whole seconds) rather than on a whole minute: for a CLI that prints a duration, not a clock time. */
  resetInMs?: number;
  /** The CLI waits for the reset and retries the refused turn by itself (opencode): that retry is the resumed request, and Mori types nothing. */
  retriesItself?: boolean;
  /**
   * The jitter after the reset (MORI_LIMIT_JITTER_MS; default 0, Mori first). With one longer than the
   * CLI's own wait, the CLI may go on first (Claude Code: at its first 30 s tick after the reset plus
   * 30–90 s): either one resume happens, the nudge or the CLI's own request, never both.
   */
  jitterMs?: number;
  /** Mori's resume at the first or the last slot of the jitter (MORI_LIMIT_JITTER_SLOT), not at random. */
  jitterSlot?: 'first' | 'last';
  /** The CLI's own continuation comes within this after the reset: the follow-up requests are counted once it has passed. */
  continuesItselfWithinMs?: number;
  /** Which one must go on first, the CLI by itself or Mori's nudge (with continuesItselfWithinMs): asserted. */
  first?: 'agent' | 'mori';
  /** More `mori init` arguments for the session (e.g. `--sandbox`). */
  initArgs?: readonly string[];
}

export interface RoundTrip {
  /** Seconds from the refused message to `limited` in `mori ls --json`. */
  detectedAfterS: number;
  /** Seconds from the refused message to the reset the API sent in the plan. */
  resetSeenAfterS: number;
  /** Seconds from the reset to the resumed request at the stand-in. */
  resumedAfterS: number;
  /** Requests the CLI sent by itself between `limited` and a second before the reset (its own retries). */
  refusedWhileLimited: number;
}

/** The session's live view from `mori ls --json`, or null. */
export function liveSession(harness: UpHarness, name: string): LiveSession | null {
  const r = harness.mori('ls', '--json');
  if (r.code !== 0) return null;
  const ls = JSON.parse(r.stdout) as { sessions: { live: LiveSession | null }[] };
  return ls.sessions.find((s) => s.live?.name === name)?.live ?? null;
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

/**
 * Runs the round trip on `harness` (its environment already set for the CLI) with session `s` of
 * `profile`; asserts every step and returns the timings.
 */
export async function limitRoundTrip(harness: UpHarness, profile: string, rig: LimitRig, options: LimitOptions = {}): Promise<RoundTrip> {
  const startMs = options.startMs ?? CLI_START_MS;
  const slackMs = options.resetSlackMs ?? 0;

  const turnTexts = (): string[] => rig.turns().map((t) => t.text);
  const jitterMs = options.jitterMs ?? 0;
  harness.env['MORI_LIMIT_JITTER_MS'] = String(jitterMs);
  if (options.jitterSlot !== undefined) harness.env['MORI_LIMIT_JITTER_SLOT'] = options.jitterSlot;
  const init = harness.mori('init', harness.project, '--name', 's', '--agent', profile, '--backend', 'tmux', ...(options.initArgs ?? []), '--task', TASK);
  expect(init.code, init.stderr).toBe(0);
  const u = harness.up();
  const shown = (): string => {
    try {
      return screen(harness, sessionJson(harness, 's').id);
    } catch {
      return '';
    }
  };
  const why = (): string => `${u.stderr()}\n--- screen ---\n${shown()}\n--- work log ---\n${safeLog(harness)}`;
  await until('the task answered', () => turnTexts().some((t) => t.includes(TASK_WORD)), why, startMs);
  await until('the agent at its prompt after the answer', () => hasEvent(u, 'session.activity', { to: 'waiting' }), why, startMs);

  // On a whole minute (every CLI prints minutes), 40–100 s ahead.
  const resetMs = options.resetInMs !== undefined ? Math.ceil((Date.now() + options.resetInMs) / 1000) * 1000 : Math.ceil((Date.now() + LEAD_MS) / MINUTE_MS) * MINUTE_MS;
  rig.limitUntil(resetMs);
  // Never before the reset; later only by what the CLI's words cannot say (a duration in whole minutes).
  const resetRead = (at: number | null | undefined): boolean => at !== null && at !== undefined && at >= resetMs && at <= resetMs + slackMs;
  const sentAt = Date.now();
  const sent = harness.mori('send', 's', SECOND);
  expect(sent.code, sent.stderr).toBe(0);
  await until('limited in mori ls', () => liveSession(harness, 's')?.state === 'limited', why, resetMs - Date.now() - 5_000);
  const detectedAfterS = (Date.now() - sentAt) / 1000;
  // A first source may name no reset (Claude Code's retry banner "5-hour limit reached · retrying…"):
  // the CLI's final limit line or its record refines it.
  await until('the reset the API sent', () => resetRead(liveSession(harness, 's')?.usageLimit?.resetAt), why, resetMs - Date.now() - 5_000);
  const resetSeenAfterS = (Date.now() - sentAt) / 1000;
  const limited = liveSession(harness, 's');
  expect(limited?.state).toBe('limited');
  const resetSeen = limited?.usageLimit?.resetAt ?? 0;
  const resumeAt = limited?.usageLimit?.resumeAt ?? 0;
  expect(resumeAt).toBeGreaterThanOrEqual(resetSeen);
  expect(resumeAt).toBeLessThanOrEqual(resetSeen + jitterMs);
  const startsBefore = u.lines().filter((e) => e['type'] === 'session.started').length;

  // Nothing resumes it before the reset.
  const turnsAtLimit = turnTexts().length;
  await new Promise((r) => setTimeout(r, Math.max(0, resetMs - Date.now() - 5_000)));
  expect(liveSession(harness, 's')?.state, why()).toBe('limited');
  expect(count(safeLog(harness), '- SESSION RESUMED'), why()).toBe(0);
  const refusedMeanwhile = turnTexts().length - turnsAtLimit;
  // The limited-state check is made a few seconds early: one `mori ls` takes a second or more here.

  const resetAgainMs = resetMs + MINUTE_MS;
  await new Promise((r) => setTimeout(r, Math.max(0, resetMs - Date.now())));
  rig.limitUntil(options.again === true ? resetAgainMs : null);
  const turnsAtReset = turnTexts().length;
  // The resumed turn: the nudge, with the conversation from before the limit; or the CLI's own retry of the refused turn.
  const itself = options.retriesItself === true;
  const either = options.continuesItselfWithinMs !== undefined;
  const carries = (t: string): boolean => (either ? t.includes(NUDGE) || t.includes(SECOND) : t.includes(itself ? SECOND : NUDGE)) && t.includes(TASK_WORD) && t.includes(rig.replyWords);
  const resumed = (): string | undefined => turnTexts().slice(turnsAtReset).find(carries);
  await until('the resumed request with the earlier turns', () => resumed() !== undefined, why, RESUME_MS + slackMs + jitterMs);
  if (either) {
    const timings = { detectedAfterS, resetSeenAfterS, refusedWhileLimited: refusedMeanwhile };
    return continuedOnce(harness, rig, { resetMs, resumeAt, turnsAtReset, within: options.continuesItselfWithinMs ?? 0, first: options.first, why, startsBefore, u, timings });
  }
  // Never before the reset: the first request holding the nudge came after it.
  const firstNudge = rig.turns().find((t) => t.text.includes(NUDGE));
  if (!itself) expect(firstNudge?.at ?? 0).toBeGreaterThanOrEqual(resetMs);
  const resumedAfterS = (Date.now() - resetMs) / 1000;
  if (itself) {
    // It waited for the reset by itself, and Mori's resume at its time finds it gone on: one entry, nothing typed.
    expect(refusedMeanwhile).toBe(0);
    await until('the one resume', () => count(safeLog(harness), '- SESSION RESUMED') === 1, why, RESUME_MS + slackMs);
    // Back at its prompt by then (the usual case), or its retry's answer still streaming: either way left to it.
    expect(safeLog(harness)).toMatch(/the agent went on by itself past its limit|agent still running \(working\)/);
    expect(firstNudge).toBeUndefined();
  }

  if (options.again === true) {
    await until('limited again with the new reset', () => liveSession(harness, 's')?.usageLimit?.resetAt === resetAgainMs, why, RESUME_MS);
    const again = liveSession(harness, 's');
    expect(again?.state).toBe('limited');
    expect(again?.usageLimit?.resumeAt).toBe(resetAgainMs);
    expect(safeLog(harness)).toContain(`SESSION LIMITED - usage limit, resumes ${clockWords(resetAgainMs)}`);
  } else {
    await until('running at its prompt again', () => liveSession(harness, 's')?.state === 'running' && liveSession(harness, 's')?.activity === 'waiting', why, RESUME_MS);
    expect(liveSession(harness, 's')?.usageLimit ?? null).toBeNull();
  }
  // Exactly one resume, by the nudge to the live agent: no relaunch, no crash, no restart.
  const log = safeLog(harness);
  expect(count(log, 'SESSION RESUMED - after usage limit'), log).toBe(1);
  expect(count(log, '- SESSION RESUMED'), log).toBe(1);
  expect(u.lines().filter((e) => e['type'] === 'session.started').length).toBe(startsBefore);
  expect(log).not.toMatch(/SESSION (CRASHED|RESTARTED)/);
  // One resumed turn: the conversation the agent sends last holds the nudge once (none when it went on by itself), and nothing before the reset held it.
  const last = turnTexts().at(-1) ?? '';
  expect(count(last, NUDGE), last).toBe(itself ? 0 : 1);
  expect(turnTexts().slice(0, turnsAtReset).some((t) => t.includes(NUDGE))).toBe(false);
  return { detectedAfterS, resetSeenAfterS, resumedAfterS, refusedWhileLimited: refusedMeanwhile };
}

/**
 * The CLI's own continuation and Mori's resume raced: once both have had their time, exactly one
 * follow-up request reached the API; when it was the CLI's own, nothing was typed and the one
 * SESSION RESUMED says it continued by itself. With `first` named, that order must be the one seen.
 */
async function continuedOnce(
  harness: UpHarness,
  rig: LimitRig,
  o: { resetMs: number; resumeAt: number; turnsAtReset: number; within: number; first: 'agent' | 'mori' | undefined; why: () => string; startsBefore: number; u: ReturnType<UpHarness['up']>; timings: Omit<RoundTrip, 'resumedAfterS'> },
): Promise<RoundTrip> {
  const end = Math.max(o.resetMs + o.within, o.resumeAt) + SETTLED_MS;
  await new Promise((r) => setTimeout(r, Math.max(0, end - Date.now())));
  const after = rig.turns().slice(o.turnsAtReset);
  const followUps = after.filter((t) => t.text.includes(TASK_WORD));
  const log = safeLog(harness);
  const nudged = followUps.some((t) => t.text.includes(NUDGE));
  console.log(`claude first: ${!nudged}; follow-up requests after the reset: ${followUps.length} at +${followUps.map((t) => ((t.at - o.resetMs) / 1000).toFixed(0)).join(', +')} s; Mori's plan +${((o.resumeAt - o.resetMs) / 1000).toFixed(0)} s`);
  expect(followUps, o.why()).toHaveLength(1);
  expect(count(log, '- SESSION RESUMED'), log).toBe(1);
  expect(count(log, 'SESSION RESUMED - after usage limit'), log).toBe(1);
  if (!nudged) expect(log).toContain('the agent continued by itself after its reset: nothing typed');
  expect(o.u.lines().filter((e) => e['type'] === 'session.started').length).toBe(o.startsBefore);
  expect(log).not.toMatch(/SESSION (CRASHED|RESTARTED)/);
  expect(liveSession(harness, 's')?.usageLimit ?? null).toBeNull();
  const first = followUps[0];
  const text = first?.text ?? '';
  if (o.first === 'agent') {
    // Its own resend of the refused turn, before Mori's planned time; nothing was ever typed.
    expect(nudged, o.why()).toBe(false);
    expect(text).toContain(SECOND);
    expect(first?.at ?? Infinity).toBeLessThan(o.resumeAt);
    expect(rig.turns().some((t) => t.text.includes(NUDGE))).toBe(false);
  } else if (o.first === 'mori') {
    // The nudge, typed once at the reset, before the CLI's own tick; its own continuation never came.
    expect(nudged, o.why()).toBe(true);
    expect(count(text, NUDGE), text).toBe(1);
    expect(first?.at ?? Infinity).toBeLessThan(o.resetMs + CLI_OWN_EARLIEST_MS);
    expect(log).not.toContain('continued by itself');
  }
  return { ...o.timings, resumedAfterS: ((first?.at ?? 0) - o.resetMs) / 1000 };
}

/** Ends the harness; an agent still writing its files on its way out gets a second to go first. */
export async function endHarness(harness: UpHarness | null): Promise<void> {
  if (harness === null) return;
  try {
    harness.cleanup();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    rmSync(harness.tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

function safeLog(harness: UpHarness): string {
  try {
    return harness.workLog('s');
  } catch {
    return '';
  }
}
