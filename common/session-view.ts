// How a session reads to the person (DESIGN.md §13), decided in this one place for the tray, the
// Dock, the notifications, the window and `mori ls`: its state in words (from its lifecycle state,
// its agent's activity and the reason it asks for attention), how badly it needs the person (its
// level, worst first), the orders that put those sessions first, and the conditions notifications
// are built on (needs input, crash loop, usage limit, verification failed, resumed after an
// absence). Pure TypeScript, shared by main and the renderer.
import type { AgentActivity } from './agent-activity.js';
import type { RuntimeState } from './events.js';
import type { LiveSession } from './ipc.js';
import type { Intent, UsageLimitPlan } from './session.js';

/** What the daemon has said about one session, folded from `list` and the event stream (common/session-list-store.ts). */
export interface WatchedSession {
  info: LiveSession;
  /** The last `session.attention`, while the session is in `attention`. */
  attention: { reason: string; message: string } | null;
  /** The last finished verification; cleared when a new one starts. */
  verify: { ok: boolean; summary: string } | null;
  /** Why it was last interrupted (sleep, network, crash…), kept until it is resumed. */
  interrupted: string | null;
}

// ---- Words ----------------------------------------------------------------------------------

/** An activity in words a person reads: `needs-input` is "needs input"; `unknown` says nothing. */
const ACTIVITY_WORDS: Record<AgentActivity, string> = {
  working: 'working',
  waiting: 'waiting',
  'needs-input': 'needs input',
  error: 'error',
  unknown: '',
};

export const activityWords = (activity: AgentActivity): string => ACTIVITY_WORDS[activity];

/** A running session reads as its agent's activity, or "running" while the activity is unknown. */
export const runningWords = (activity: AgentActivity): string => ACTIVITY_WORDS[activity] || 'running';

/** A wall time as the person's clock shows it: "00:50" (local time, 24-hour). */
export function clockWords(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * The agent a session runs, saying whom it stands in for while handed over at a usage limit, to go
 * back at the reset: "codex (for claude until 14:00)"; else the profile alone.
 */
export function profileWords(profile: string, handedOver: { from: string; to: string; until: number } | null | undefined): string {
  return handedOver && handedOver.to === profile ? `${profile} (for ${handedOver.from} until ${clockWords(handedOver.until)})` : profile;
}

/**
 * A usage limit in words: "usage limit · resumes 00:50" when the agent named its reset time, else
 * "usage limit · retrying 01:15" (a try at the retry interval, DESIGN.md §4).
 */
export const limitWords = (plan: Pick<UsageLimitPlan, 'resetAt' | 'resumeAt'>): string =>
  `usage limit · ${plan.resetAt !== null ? 'resumes' : 'retrying'} ${clockWords(plan.resumeAt)}`;

/** A session the person chose not to resume at its limit: "stopped at usage limit (resets 00:50)". */
export const stoppedAtLimitWords = (plan: Pick<UsageLimitPlan, 'resetAt'>): string =>
  `stopped at usage limit${plan.resetAt !== null ? ` (resets ${clockWords(plan.resetAt)})` : ''}`;

/** Why a session was interrupted, as its intent records it (sleep, network, crash…), or null. */
const interruptedBy = (s: Pick<LiveSession, 'intent'>): string | null => (s.intent.kind === 'interrupted' ? s.intent.reason : null);

/** An attention reason in words: "crash loop", "needs trust" (the reasons are kebab-case slugs). */
export const reasonWords = (reason: string): string => reason.replace(/-/g, ' ');

/**
 * A session's precise state, in the one vocabulary the window's list and header, the tray and the CLI
 * (`mori ls`, `mori status`) share: its word (stateWord) with what makes it precise — why it was
 * interrupted and when the restart comes, a usage limit's time, the reason it needs attention.
 */
export function preciseState(s: Pick<LiveSession, 'state' | 'activity' | 'intent' | 'nextAttemptAt' | 'usageLimit' | 'attention'>): string {
  if (s.usageLimit && s.state === 'limited') return limitWords(s.usageLimit);
  if (s.usageLimit && s.state === 'stopped') return stoppedAtLimitWords(s.usageLimit);
  const word = stateWord(s);
  const why = interruptedBy(s);
  switch (s.state) {
    case 'backoff':
      return `${word}${why ? ` (${why})` : ''} · restarting${s.nextAttemptAt !== null && s.nextAttemptAt !== undefined ? ` at ${clockWords(s.nextAttemptAt)}` : ''}`;
    case 'interrupted':
      return `${word}${why ? ` (${why})` : ''}`;
    case 'attention': {
      const reason = s.attention?.reason ?? (s.intent.kind === 'attention' ? s.intent.reason : null);
      return reason ? `${word}: ${reasonWords(reason)}` : word;
    }
    default:
      return word;
  }
}

/** A session's state as last recorded (its intent), for `mori ls` when no supervisor answers: in the same words. */
export function recordedWords(intent: Intent): string {
  switch (intent.kind) {
    case 'new':
      return LIFECYCLE_WORD.idle;
    case 'user-stopped':
      return LIFECYCLE_WORD.stopped;
    case 'interrupted':
      return `${LIFECYCLE_WORD.interrupted} (${intent.reason})`;
    case 'attention':
      return `${LIFECYCLE_WORD.attention}: ${reasonWords(intent.reason)}`;
    default:
      return intent.kind;
  }
}

/** Lifecycle states in which the supervisor holds the agent or is about to: Stop applies, not Start. */
export const isLive = (state: RuntimeState): boolean =>
  state === 'running' || state === 'starting' || state === 'resuming' || state === 'verifying' || state === 'backoff' || state === 'limited';

// ---- Conditions the notifications are built on ----------------------------------------------

/** What an attention reason is to the person: a crash loop, a usage limit, or something else to look at. */
export type AttentionKind = 'crash-loop' | 'usage-limit' | 'attention';

export const attentionKind = (reason: string): AttentionKind => (reason === 'crash-loop' || reason === 'usage-limit' ? reason : 'attention');

/** The attention reason of a session in `attention`: the event's, else the one its intent recorded. */
export const attentionReason = (row: WatchedSession): string => row.attention?.reason ?? (row.info.intent.kind === 'attention' ? row.info.intent.reason : 'attention');

/** The agent started asking a question only the person can answer (a transition, not a state). */
export const becameNeedsInput = (from: AgentActivity, to: AgentActivity): boolean => to === 'needs-input' && from !== 'needs-input';

/** The last verification failed and still matters: a stopped or finished session is not failing. */
export const verifyFailing = (row: WatchedSession): boolean => row.verify !== null && !row.verify.ok && row.info.state !== 'stopped' && row.info.state !== 'finished';

/** Interruptions whose end is news, with the words that say so: the person was away or offline, not watching. */
const AWAY_WORDS = new Map<string, string>([
  ['sleep', 'after sleep'],
  ['network', 'after a network outage'],
  ['reboot', 'after a restart'],
]);

/** "after sleep" when resuming from this interruption is news to the person; null when it is not (a crash). */
export const resumedAfterAbsence = (reason: string | undefined): string | null => (reason === undefined ? null : (AWAY_WORDS.get(reason) ?? null));

// ---- Levels: the tray, the Dock and the notifications -----------------------------------------

/** Worst first: the tray icon shows the worst level of all sessions (DESIGN.md §13). */
export const LEVELS = ['failing', 'needs-you', 'working', 'ok'] as const;
export type Level = (typeof LEVELS)[number];

export interface ShownStatus {
  level: Level;
  /** A few words: "needs input", "crash loop", "verification failed", "working"… */
  words: string;
  /** Set when the status is one the person is told about (a notification); equal keys are the same condition. */
  notable: 'needs-input' | 'crash-loop' | 'verify-failed' | 'attention' | 'usage-limit' | null;
}

/** A running session's level by its agent's activity. */
const ACTIVITY_LEVEL: Record<AgentActivity, Level> = { 'needs-input': 'needs-you', error: 'failing', working: 'working', waiting: 'ok', unknown: 'ok' };

export function sessionStatus(row: WatchedSession): ShownStatus {
  const { info } = row;
  if (info.state === 'attention') {
    const reason = attentionReason(row);
    const kind = attentionKind(reason);
    if (kind === 'crash-loop') return { level: 'failing', words: 'crash loop', notable: 'crash-loop' };
    if (kind === 'usage-limit') return { level: 'needs-you', words: 'usage limit', notable: 'usage-limit' };
    return { level: 'needs-you', words: `needs you: ${reason}`, notable: 'attention' };
  }
  if (info.state === 'limited') {
    return { level: 'needs-you', words: info.usageLimit ? limitWords(info.usageLimit) : 'usage limit', notable: 'usage-limit' };
  }
  if (verifyFailing(row)) return { level: 'failing', words: 'verification failed', notable: 'verify-failed' };
  switch (info.state) {
    case 'running':
      return { level: ACTIVITY_LEVEL[info.activity], words: runningWords(info.activity), notable: info.activity === 'needs-input' ? 'needs-input' : null };
    case 'starting':
    case 'resuming':
    case 'verifying':
      return { level: 'working', words: stateWord(info), notable: null };
    case 'backoff':
    case 'interrupted':
      return { level: 'working', words: row.interrupted ? `interrupted (${row.interrupted})` : stateWord(info), notable: null };
    case 'stopped':
      return { level: 'ok', words: info.usageLimit ? stoppedAtLimitWords(info.usageLimit) : stateWord(info), notable: null };
    default:
      return { level: 'ok', words: stateWord(info), notable: null };
  }
}

export function worstLevel(levels: readonly Level[]): Level {
  let worst: Level = 'ok';
  for (const l of levels) if (LEVELS.indexOf(l) < LEVELS.indexOf(worst)) worst = l;
  return worst;
}

/** The session needs the person: the tray's "needs you" and "failing" levels (the Dock's badge counts these). */
export const needsYou = (row: WatchedSession): boolean => {
  const level = sessionStatus(row).level;
  return level === 'needs-you' || level === 'failing';
};

/** The tray's order: worst level first, then by name. */
export const byLevel = (a: WatchedSession, b: WatchedSession): number =>
  LEVELS.indexOf(sessionStatus(a).level) - LEVELS.indexOf(sessionStatus(b).level) || a.info.name.localeCompare(b.info.name);

// ---- The window's one word and its list order -----------------------------------------------

export type StateWord =
  | 'needs input'
  | 'error'
  | 'attention'
  | 'usage limit'
  | 'interrupted'
  | 'resuming'
  | 'verifying'
  | 'working'
  | 'waiting'
  | 'running'
  | 'starting'
  | 'not started'
  | 'stopped'
  | 'finished';

/** The one word of each lifecycle state but `running`, which reads as its agent's activity. */
const LIFECYCLE_WORD: Record<Exclude<RuntimeState, 'running'>, StateWord> = {
  attention: 'attention',
  interrupted: 'interrupted',
  backoff: 'interrupted',
  limited: 'usage limit',
  resuming: 'resuming',
  verifying: 'verifying',
  // Loaded, not launched: a session registered while the daemon runs waits for the person's Start.
  idle: 'not started',
  starting: 'starting',
  stopped: 'stopped',
  finished: 'finished',
};

/** The one word the window's list and header show (and style by): the activity while it runs, else the lifecycle. */
export function stateWord(s: Pick<LiveSession, 'state' | 'activity'>): StateWord {
  return s.state === 'running' ? (runningWords(s.activity) as StateWord) : LIFECYCLE_WORD[s.state];
}

/**
 * Lower first: the person is needed (a question before any other attention), then something is
 * wrong, then busy, then quiet. Finer than the levels: the list sorts by what the person does next.
 */
const NEED_RANK: Record<StateWord, number> = {
  'needs input': 0,
  attention: 1,
  error: 2,
  // Waits by itself for its reset; the person may resume it now or not at all.
  'usage limit': 3,
  interrupted: 4,
  resuming: 5,
  verifying: 6,
  waiting: 7,
  working: 8,
  running: 9,
  starting: 10,
  'not started': 11,
  stopped: 12,
  finished: 13,
};

/** Whether the word asks for the person (the list marks these). */
export const needsPerson = (w: StateWord): boolean => NEED_RANK[w] <= NEED_RANK['usage limit'];

/** The need order alone: negative when `a` needs the person sooner than `b`, 0 when their words rank alike. */
export const byNeed = (a: Pick<LiveSession, 'state' | 'activity'>, b: Pick<LiveSession, 'state' | 'activity'>): number => NEED_RANK[stateWord(a)] - NEED_RANK[stateWord(b)];

/** Sessions by need, failing checks first within a rank, then by name (the window's list keeps a steadier order: common/session-order.ts). */
export function orderSessions<T extends Pick<LiveSession, 'state' | 'activity' | 'name'> & { failingChecks?: number | undefined }>(sessions: readonly T[]): T[] {
  return [...sessions].sort((a, b) => {
    const r = byNeed(a, b);
    if (r !== 0) return r;
    const f = (b.failingChecks ?? 0) - (a.failingChecks ?? 0);
    if (f !== 0) return f;
    return a.name.localeCompare(b.name);
  });
}

// ---- The window's header: what needs the person, in a sentence, and what fixes it --------------

/** The actions a header sentence offers; the window wires each to its control-API call or view. */
export type HeaderAction = 'resume-now' | 'dont-resume' | 'restart' | 'copy-install' | 'review-trust' | 'open-state-file' | 'reply';

/** Each action's button words. */
export const HEADER_ACTION_WORDS: Record<HeaderAction, string> = {
  'resume-now': 'Resume now',
  'dont-resume': "Don't resume",
  restart: 'Restart',
  'copy-install': 'Copy',
  'review-trust': 'Review and trust…',
  'open-state-file': 'Open the file',
  reply: 'Send',
};

export interface HeaderAdvice {
  /** One sentence saying what happened and what the person may do. */
  sentence: string;
  actions: HeaderAction[];
  /** Shown under the sentence (the install command, the file's error…); null when there is none. */
  detail: string | null;
  /** The screen's last lines go with it: the agent's question, or the output before the crashes. */
  screen: 'prompt' | 'last-output' | null;
  /** Whether it blocks the agent (an error's look) or only waits (a warning's). */
  tone: 'bad' | 'warn';
}

/** Seconds until `at` as a person reads a countdown: "in 12 s", "in 3 min", "now". */
export function countdownWords(at: number, now: number): string {
  const s = Math.ceil((at - now) / 1000);
  if (s <= 0) return 'now';
  // Under two minutes the seconds matter (a backoff's retry); beyond, minutes are enough.
  return s < 120 ? `in ${s} s` : `in ${Math.ceil(s / 60)} min`;
}

/** The command after "install it: " in an agent-missing message (missingProgramMessage), or null. */
export const installCommandOf = (message: string): string | null => /install it: (.+)$/.exec(message)?.[1]?.trim() ?? null;

/** The daemon's words for the terminal (`Approve it with \`mori trust S\``): the header has the button instead. */
export function withoutCliHint(message: string): string {
  return message.replace(/\s*Approve it with `mori trust [^`]*`\.?\s*$/, '');
}

/**
 * What the header says for a session that needs the person or waits (null when there is nothing to say):
 * `message` is the last `session.attention` message for it, when the window saw one.
 */
export function headerAdvice(info: Pick<LiveSession, 'state' | 'activity' | 'intent' | 'nextAttemptAt' | 'usageLimit'>, message: string | null, now: number): HeaderAdvice | null {
  const advice = (sentence: string, actions: HeaderAction[], tone: HeaderAdvice['tone'], extra: Partial<Pick<HeaderAdvice, 'detail' | 'screen'>> = {}): HeaderAdvice => ({
    sentence,
    actions,
    tone,
    detail: extra.detail ?? null,
    screen: extra.screen ?? null,
  });
  if (info.state === 'limited') {
    const plan = info.usageLimit;
    if (!plan) return advice('Usage limit: Mori waits for it to reset.', ['resume-now', 'dont-resume'], 'warn');
    const when = plan.resetAt !== null ? `resumes at ${clockWords(plan.resumeAt)}` : `next try at ${clockWords(plan.resumeAt)}`;
    return advice(`Usage limit: ${when}.`, ['resume-now', 'dont-resume'], 'warn', { detail: plan.text || null });
  }
  if (info.state === 'stopped' && info.usageLimit) {
    const reset = info.usageLimit.resetAt;
    return advice(`Stopped at the usage limit${reset !== null ? `; it resets at ${clockWords(reset)}` : ''}. Start resumes it.`, [], 'warn');
  }
  if (info.state === 'backoff' && info.nextAttemptAt !== null) return advice(`Restarting the agent ${countdownWords(info.nextAttemptAt, now)} (at ${clockWords(info.nextAttemptAt)}).`, [], 'warn');
  if (info.state === 'running' && info.activity === 'needs-input') return advice('The agent is asking you something:', ['reply'], 'warn', { screen: 'prompt' });
  if (info.state !== 'attention' || info.intent.kind !== 'attention') return null;
  const reason = info.intent.reason;
  switch (reason) {
    case 'crash-loop':
      return advice('The agent kept crashing, so Mori stopped restarting it. Its last output:', ['restart'], 'bad', { screen: 'last-output' });
    case 'agent-missing':
      return advice("The agent's program was not found. Install it, then Restart:", ['copy-install', 'restart'], 'bad', { detail: message ? installCommandOf(message) : null });
    case 'needs-trust':
      return advice('The launch needs your trust for a command or address it names.', ['review-trust'], 'warn', { detail: message === null ? null : withoutCliHint(message) });
    case 'state-invalid':
      // The window opens only the files it edits; session.json (Mori's own) is fixed by hand, as the message says.
      return advice('A state file could not be read; fix it, then Restart.', /(session_state|environment)\.md/.test(message ?? '') ? ['open-state-file', 'restart'] : ['restart'], 'bad', { detail: message });
    case 'usage-limit':
      return advice('Usage limit: Mori stopped waiting for it.', ['restart'], 'warn', { detail: message });
    case 'api-error':
      // Its agent still runs at its prompt, its screen showing what the API answered; a start would find it running.
      return advice("The agent kept failing at its API through Mori's nudges while the network answers: its API key or account likely needs you. Fix it, then Restart… the session. Its last output:", [], 'bad', { detail: message, screen: 'last-output' });
    case 'held-by-agent-daemon':
      // The agent's own background service runs the conversation: a resume here would start a copy of it.
      return advice("The agent's own background service holds this conversation. Open it there, or stop it there, then Restart:", ['restart'], 'warn', { detail: message });
    default:
      return advice(`Needs attention: ${reason}.`, ['restart'], 'bad', { detail: message });
  }
}

/** A numbered menu on the agent's screen (`❯ 1. Yes` / `2. No`): its choices, in order; empty when there is none. */
export function menuChoices(lines: readonly string[]): { key: string; label: string }[] {
  const choices: { key: string; label: string }[] = [];
  for (const l of lines) {
    const m = /^\s*(?:[❯>›]\s*)?(\d{1,2})\.\s+(\S.*?)\s*$/.exec(l);
    if (m?.[1] && m[2] && !choices.some((c) => c.key === m[1])) choices.push({ key: m[1], label: m[2] });
  }
  // A menu counts from 1 without gaps; anything else is numbered text, not a menu.
  return choices.every((c, i) => c.key === String(i + 1)) && choices.length >= 2 ? choices : [];
}
