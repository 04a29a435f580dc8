// How text reaches an agent: the one path every typed input takes (the nudge after an interruption,
// `mori send`, the first prompt typed into agents that take none on argv), DESIGN.md §4 "Resume
// action". Text with Enter is delivered (deliverText): typed as the profile's TypingRules say, shown
// on the screen, Enter sent on its own, the agent confirmed busy, Enter tried once more, else reported
// not submitted; nothing is typed while the agent retries a request by itself, and no nudge while its
// screen shows it working (what the supervisor last knew may be older: a wake, a turn begun unseen),
// looked at before the text is typed and again before Enter (a turn it began by itself meanwhile
// gets no Enter). Keys without Enter are
// written as they are; an input that did not get through is logged (Typist). Runs in the supervisor's
// process; delivery waits on the clock and scheduler it is given (the system's unless a test gives
// its manual time).
import type { Env } from '../../agents/profile.js';
import { systemClock, systemScheduler, type PowerClock, type Scheduler } from '../../power/clock.js';
import { detectActivity } from '../../agents/screen-activity.js';
import type { Terminal } from '../../terminals/terminal.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import type { AgentActivity } from '../../../common/agent-activity.js';
import { isRetrying, shownCount, typedWrites, type TypingRules } from '../../agents/typing.js';

export type TypedInputOutcome = DeliveryOutcome;

/** What a typed input is for, for the work log when it does not get through. */
export type TypedInputPurpose = 'nudge' | 'send' | 'first prompt';

export async function typeInto(rt: SessionRuntime, terminal: Terminal, text: string, enter: boolean, env: Env, time: DeliveryTime = SYSTEM_TIME, purpose: TypedInputPurpose = 'send', inCharge?: () => boolean): Promise<TypedInputOutcome> {
  if (terminal.exit !== null) return { kind: 'not-submitted', why: 'the agent has exited' };
  if (inCharge !== undefined && !inCharge()) return { kind: 'withdrawn' };
  if (!enter) {
    terminal.write(text);
    return { kind: 'submitted' };
  }
  const target = deliveryTarget(rt, terminal, env);
  // A nudge is for an agent that stopped; the person's own text may be queued into a working one.
  if (purpose === 'nudge') {
    const since = Date.now();
    target.workingNow = (screen) => workingNow(rt, terminal, env, screen, since);
  }
  if (inCharge !== undefined) target.inCharge = inCharge;
  return deliverText(target, text, rt.profile.typing, time);
}

/**
 * Whether the agent works now: its screen says so, and its own status (claude's status file), where
 * it keeps one, does not say otherwise (a line of its answer can look like a spinner's); or that
 * status, written since delivery began (`sinceMs`), says it works: a turn it began by itself while
 * the text was typed, which a screen read through a lagging mirror may not show yet (typing alone
 * does not change the status; one left by an earlier process is older than the delivery).
 */
async function workingNow(rt: SessionRuntime, t: Terminal, env: Env, screen: string, sinceMs: number): Promise<boolean> {
  const agentId = rt.session.agent.sessionId;
  const onScreen = detectActivity(rt.profile, screen) === 'working';
  if (rt.profile.status === undefined || agentId === null) return onScreen;
  const reported = await rt.profile.status.find(env, agentId, t.pid).catch(() => null);
  if (reported === null) return onScreen;
  if (reported.activity === 'working' && reported.writtenAtMs >= sinceMs) return true;
  return onScreen && reported.activity === 'working';
}

/**
 * The terminal as delivery sees it. Busy: the agent exited or its terminal closed (it acted on the input), its session id
 * changed (a /clear), its screen shows it working, or its own record on disk says it took a prompt
 * since delivery began (tookInputSince).
 */
function deliveryTarget(rt: SessionRuntime, t: Terminal, env: Env): DeliveryTarget {
  const since = Date.now();
  const agentId = rt.session.agent.sessionId;
  const agentCwd = rt.session.agent.cwd ?? rt.projectDir;
  return {
    write: (data) => t.write(data),
    screenText: () => t.screenText(),
    activity: () => rt.activity,
    busy: async () => {
      if (t.exit !== null || rt.terminal !== t) return true;
      // A slash command such as /clear starts no turn, but the agent's new session id (its
      // SessionStart hook) shows it acted on the input.
      if (rt.session.agent.sessionId !== agentId) return true;
      // Its mirror closes as the agent ends, which can come before the exit is recorded: ended after Enter.
      const screen = await t.screenText().catch(() => null);
      if (screen === null) return true;
      if (detectActivity(rt.profile, screen) === 'working') return true;
      return rt.profile.tookInputSince !== undefined && agentId !== null ? rt.profile.tookInputSince({ agentSessionId: agentId, cwd: agentCwd }, env, since) : false;
    },
  };
}

/** What typing needs: the agents' environment, the work log for an input that did not get through, and the time delivery waits on (the system's if not given). */
export interface TypistPorts {
  env: Env;
  store: Pick<SessionStore, 'log'>;
  clock?: PowerClock;
  scheduler?: Scheduler;
}

/** The one way typed text reaches an agent; an input that did not get through is logged. */
export class Typist {
  constructor(private readonly ports: TypistPorts) {}

  /**
   * `inCharge`, for an input typed on Mori's own account (a nudge): whether what asked for it still
   * stands, looked at as the text is about to be written and before each Enter; once it does not (the
   * session went to its usage limit, or another took charge, while the typing waited on a loaded
   * machine), nothing more is written: `withdrawn`.
   */
  async type(rt: SessionRuntime, text: string, purpose: TypedInputPurpose, enter = true, inCharge?: () => boolean): Promise<TypedInputOutcome> {
    const { env, store, clock = systemClock, scheduler = systemScheduler } = this.ports;
    const t = rt.terminal;
    const outcome: TypedInputOutcome = t ? await typeInto(rt, t, text, enter, env, { clock, scheduler }, purpose, inCharge) : { kind: 'not-submitted', why: 'the agent is not running' };
    if (outcome.kind === 'not-submitted') store.log(rt, `INPUT NOT SUBMITTED - ${purpose}: ${outcome.why}`);
    else if (outcome.kind === 'agent-retrying' && purpose !== 'nudge') store.log(rt, `INPUT NOT SUBMITTED - ${purpose}: the agent was retrying a request by itself`);
    return outcome;
  }
}

/** What delivery needs of a session's terminal. */
export interface DeliveryTarget {
  write(data: string): void;
  /** The visible screen as plain text. */
  screenText(): Promise<string>;
  /** The agent's current activity as the supervisor knows it. */
  activity(): AgentActivity;
  /** Whether the agent is busy now, or went busy since this target was made (claude's status file, a fresh screen read). */
  busy?(): Promise<boolean>;
  /** Set for a nudge: whether the agent works now (`screen` is the one just read), so nothing is typed into it, and no Enter sent. */
  workingNow?(screen: string): Promise<boolean>;
  /** Set for an input on Mori's own account: false once it no longer stands (see Typist.type), so nothing more is written. */
  inCharge?(): boolean;
}

export type DeliveryOutcome = { kind: 'submitted' } | { kind: 'not-submitted'; why: string } | { kind: 'agent-retrying' } | { kind: 'agent-working' } | { kind: 'withdrawn' };

export interface DeliveryOptions extends Partial<DeliveryTime> {
  /** How long the typed text may take to show on screen (a busy 2-core machine, a slow TUI). */
  showTimeoutMs?: number;
  /** How long after Enter the agent may take to go busy. */
  confirmTimeoutMs?: number;
  /** How often the screen and status are read while waiting. */
  pollMs?: number;
}

/** The time delivery waits on: its deadlines on the monotonic clock, its pauses and polls on the scheduler. */
export interface DeliveryTime {
  clock: PowerClock;
  scheduler: Scheduler;
}

const SYSTEM_TIME: DeliveryTime = { clock: systemClock, scheduler: systemScheduler };

/** A TUI repaints typed text within a frame or two; seconds of headroom for a loaded machine. */
export const SHOW_TIMEOUT_MS = 5_000;
/** Agents mark themselves busy as soon as a turn starts; the same headroom. */
export const CONFIRM_TIMEOUT_MS = 5_000;
/** Fast enough to catch a short turn's busy screen, rare enough to cost nothing. */
export const POLL_MS = 100;
/** Enter is sent at most this often: the first one and one more. */
const ENTER_ATTEMPTS = 2;

/** A pause someone awaits: kept alive, so a process does not exit in the middle of typing. */
const sleeper =
  (scheduler: Scheduler) =>
  (ms: number): Promise<void> =>
    new Promise((resolve) => scheduler.after(ms, resolve, true));

/** Polls `ok` until it holds or `timeoutMs` passes on `clock`. */
async function until(ok: () => Promise<boolean>, timeoutMs: number, pollMs: number, time: DeliveryTime): Promise<boolean> {
  const end = time.clock.monoMs() + timeoutMs;
  const sleep = sleeper(time.scheduler);
  for (;;) {
    if (await ok()) return true;
    if (time.clock.monoMs() >= end) return false;
    await sleep(pollMs);
  }
}

export async function deliverText(target: DeliveryTarget, text: string, rules: TypingRules, options: DeliveryOptions = {}): Promise<DeliveryOutcome> {
  const showTimeout = options.showTimeoutMs ?? SHOW_TIMEOUT_MS;
  const confirmTimeout = options.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS;
  const pollMs = options.pollMs ?? POLL_MS;
  const time: DeliveryTime = { clock: options.clock ?? systemClock, scheduler: options.scheduler ?? systemScheduler };
  const sleep = sleeper(time.scheduler);
  try {
    const before = await target.screenText();
    if (isRetrying(before, rules)) return { kind: 'agent-retrying' };
    if ((await target.workingNow?.(before)) === true) return { kind: 'agent-working' };
    // The reads above can take seconds on a loaded machine: the input may no longer stand.
    if (target.inCharge?.() === false) return { kind: 'withdrawn' };
    // The same text may already be on screen (an earlier nudge's echo): wait for one more showing.
    const shownBefore = shownCount(before, text, rules);
    for (const w of typedWrites(text, rules)) {
      target.write(w.data);
      if (w.pauseAfterMs > 0) await sleep(w.pauseAfterMs);
    }
    if (rules.echoes) {
      const shown = await until(async () => shownCount(await target.screenText(), text, rules) > shownBefore, showTimeout, pollMs, time);
      // Enter over a screen that does not show the text could answer something else (a menu): not sent.
      if (!shown) return { kind: 'not-submitted', why: `the typed text did not show on screen within ${Math.round(showTimeout / 1000)}s` };
    }
    const wentBusy = async (): Promise<boolean> => {
      if (target.activity() === 'working' || (await target.busy?.()) === true) return true;
      // After Enter, a terminal whose screen can no longer be read is an agent that ended on the input.
      const screen = await target.screenText().catch(() => null);
      return screen === null || isRetrying(screen, rules);
    };
    for (let attempt = 1; attempt <= ENTER_ATTEMPTS; attempt++) {
      if (rules.enterDelayMs > 0) await sleep(rules.enterDelayMs);
      // A turn the agent began by itself while the text was typed (an agent's own turns start when
      // they will): Enter would put a nudge into it. The text is left unsent in its input. Looked at
      // before the first Enter only: after it, a turn under way is the one the Enter started.
      if (attempt === 1 && (await target.workingNow?.(await target.screenText())) === true) return { kind: 'agent-working' };
      // Typed but not sent: an Enter now would submit it into an agent at its limit.
      if (target.inCharge?.() === false) return { kind: 'withdrawn' };
      target.write(rules.enter);
      if (rules.confirm === 'none') return { kind: 'submitted' };
      if (await until(wentBusy, confirmTimeout, pollMs, time)) return { kind: 'submitted' };
    }
    return { kind: 'not-submitted', why: `the agent did not start working after Enter (sent ${ENTER_ATTEMPTS} times)` };
  } catch (e) {
    return { kind: 'not-submitted', why: `the terminal went away (${e instanceof Error ? e.message : String(e)})` };
  }
}
