// Delivers a text into a running agent's input and makes sure it was taken (DESIGN.md §4 "Resume
// action"): type it as the profile's TypingRules say, wait until the screen shows it, send Enter on
// its own, confirm the agent went busy, try Enter once more, else report it not submitted. Nothing is
// typed while the agent retries a request by itself. Every typed input (nudge, `mori send`, a typed
// first prompt) goes through deliverText. Runs in the supervisor's process; timers are real (short).
import type { AgentActivity } from '../../../common/agent-activity.js';
import { isRetrying, shownCount, typedWrites, type TypingRules } from '../../agents/typing.js';

/** What delivery needs of a session's terminal. */
export interface DeliveryTarget {
  write(data: string): void;
  /** The visible screen as plain text. */
  screenText(): Promise<string>;
  /** The agent's current activity as the supervisor knows it. */
  activity(): AgentActivity;
  /** Whether the agent is busy now, or went busy since this target was made (claude's status file, a fresh screen read). */
  busy?(): Promise<boolean>;
}

export type DeliveryOutcome = { kind: 'submitted' } | { kind: 'not-submitted'; why: string } | { kind: 'agent-retrying' };

export interface DeliveryOptions {
  /** How long the typed text may take to show on screen (a busy 2-core machine, a slow TUI). */
  showTimeoutMs?: number;
  /** How long after Enter the agent may take to go busy. */
  confirmTimeoutMs?: number;
  /** How often the screen and status are read while waiting. */
  pollMs?: number;
}

/** A TUI repaints typed text within a frame or two; seconds of headroom for a loaded machine. */
export const SHOW_TIMEOUT_MS = 5_000;
/** Agents mark themselves busy as soon as a turn starts; the same headroom. */
export const CONFIRM_TIMEOUT_MS = 5_000;
/** Fast enough to catch a short turn's busy screen, rare enough to cost nothing. */
export const POLL_MS = 100;
/** Enter is sent at most this often: the first one and one more. */
const ENTER_ATTEMPTS = 2;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `ok` until it holds or `timeoutMs` passes. */
async function until(ok: () => Promise<boolean>, timeoutMs: number, pollMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await ok()) return true;
    if (Date.now() >= end) return false;
    await sleep(pollMs);
  }
}

export async function deliverText(target: DeliveryTarget, text: string, rules: TypingRules, options: DeliveryOptions = {}): Promise<DeliveryOutcome> {
  const showTimeout = options.showTimeoutMs ?? SHOW_TIMEOUT_MS;
  const confirmTimeout = options.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS;
  const pollMs = options.pollMs ?? POLL_MS;
  try {
    const before = await target.screenText();
    if (isRetrying(before, rules)) return { kind: 'agent-retrying' };
    // The same text may already be on screen (an earlier nudge's echo): wait for one more showing.
    const shownBefore = shownCount(before, text, rules);
    for (const w of typedWrites(text, rules)) {
      target.write(w.data);
      if (w.pauseAfterMs > 0) await sleep(w.pauseAfterMs);
    }
    if (rules.echoes) {
      const shown = await until(async () => shownCount(await target.screenText(), text, rules) > shownBefore, showTimeout, pollMs);
      // Enter over a screen that does not show the text could answer something else (a menu): not sent.
      if (!shown) return { kind: 'not-submitted', why: `the typed text did not show on screen within ${Math.round(showTimeout / 1000)}s` };
    }
    const wentBusy = async (): Promise<boolean> =>
      target.activity() === 'working' || (await target.busy?.()) === true || isRetrying(await target.screenText(), rules);
    for (let attempt = 1; attempt <= ENTER_ATTEMPTS; attempt++) {
      if (rules.enterDelayMs > 0) await sleep(rules.enterDelayMs);
      target.write(rules.enter);
      if (rules.confirm === 'none') return { kind: 'submitted' };
      if (await until(wentBusy, confirmTimeout, pollMs)) return { kind: 'submitted' };
    }
    return { kind: 'not-submitted', why: `the agent did not start working after Enter (sent ${ENTER_ATTEMPTS} times)` };
  } catch (e) {
    return { kind: 'not-submitted', why: `the terminal went away (${e instanceof Error ? e.message : String(e)})` };
  }
}
