// The report of the time away (DESIGN.md §9, "mori report"; the window's "While you were away"):
// per session, since a moment, each interruption and how it ended, the checks that went red and came
// back, the checkpoints and the files changed, the usage in the period, the agent's own account, and
// first what needs the person now. Built only from what Mori already keeps (the work log's Mori
// lines, the checkpoints, session_state.md, the usage book's days, session.json's intent); nothing
// here reads or collects. Pure TypeScript, on the caller's clock: the CLI, the daemon and the window.
import { isMoriLine, readAwayLine, type InterruptCause, type ResumeHow } from './away-lines.js';

/** A crash this soon after the agent came back continues the episode (the restart policy's 60 s of uptime), plus the log's minute. */
const CONTINUES_MS = 2 * 60_000;
/** The agent's own work-log lines shown, at most: the last few say where it got to. */
export const ACCOUNT_LINES = 5;

export interface AwayLogEntry {
  /** The entry's heading time; null when it is not a time (its lines still count, in order). */
  atMs: number | null;
  lines: readonly string[];
}

export interface AwaySessionInput {
  id: string;
  name: string;
  agent: string;
  /** session.json's intent now. */
  intent: { kind: string; reason?: string };
  /** The work log's entries, oldest first. */
  entries: readonly AwayLogEntry[];
  checkpoints: readonly { seq: number; id: string; atMs: number; reason: string; files: number }[];
  /** The files changed since the period's first checkpoint, or why they are not known. */
  changes: { sinceSeq: number; files: readonly { path: string; kind: string }[] } | { problem: string } | null;
  /** The usage book's days (YYYY-MM-DD), or why there are none. */
  usage: { days: readonly { day: string; requests: number; cost: number; tokens: number; unpriced: number }[]; priceTable: string } | { problem: string };
  /** session_state.md now. */
  task: { task: readonly string[]; nextSteps: readonly string[]; lastWorkingState: string | null } | { problem: string };
}

export interface AwayInput {
  sinceMs: number;
  nowMs: number;
  /** The day `sinceMs` falls on, as the usage book counts days. */
  sinceDay: string;
  /** Where the moment came from: the person's last look, the time given, or the default look-back. */
  sinceFrom: 'last-looked' | 'given' | 'default';
  sessions: readonly AwaySessionInput[];
}

export type Outcome = 'resumed-by-id' | 'resumed-fresh' | 'resumed' | 'handed-off' | 'attention' | 'stopped' | 'finished' | 'open';

export interface AwayInterruption {
  kind: 'interruption';
  atMs: number;
  cause: InterruptCause | 'attention';
  /** How Mori's log said it: "agent crashed (exit 1); restarting in 1s", "claude: limit … resets 04:00". */
  words: string;
  /** How many times it was interrupted before it ended (a crash loop's restarts). */
  times: number;
  outcome: Outcome;
  endedAtMs: number | null;
  /** The outcome's own words: the resume's, the hand-off's, the attention's reason and message. */
  detail: string;
}

export interface AwayChecks {
  kind: 'checks';
  atMs: number;
  text: string;
  failing: string[];
  wentRed: string[];
  cameBack: string[];
}

export interface AwayCheckpoint {
  kind: 'checkpoint';
  atMs: number;
  seq: number;
  id: string;
  reason: string;
  files: number;
}

export type AwayItem = AwayInterruption | AwayChecks | AwayCheckpoint;

export interface AwaySession {
  id: string;
  name: string;
  agent: string;
  /** What needs the person now, or null. */
  needs: string | null;
  /** Interruptions, checks and checkpoints in the order they came. */
  timeline: AwayItem[];
  /** The checks as they stood before the period and as they stand now (null: none ran). */
  checksBefore: AwayChecks | null;
  checksNow: AwayChecks | null;
  changes: { sinceSeq: number; files: { path: string; kind: string }[] } | { problem: string } | null;
  usage: { requests: number; cost: number; tokens: number; unpriced: number; fromDay: string; priceTable: string } | { problem: string };
  account: { task: string[]; nextSteps: string[]; lastWorkingState: string | null; logLines: string[] } | { problem: string };
}

export interface AwayReport {
  sinceMs: number;
  nowMs: number;
  sinceFrom: AwayInput['sinceFrom'];
  /** What needs the person now, first: attention, then checks red now, then waiting. */
  needsYou: { session: string; why: string }[];
  /** The sessions with anything in the period or needing the person. */
  sessions: AwaySession[];
  /** The names of the sessions with nothing to say. */
  quiet: string[];
}

const RESUMED: Record<ResumeHow, Outcome> = { 'by-id': 'resumed-by-id', fresh: 'resumed-fresh', 'went-on': 'resumed' };

/** The time of each entry: its heading's, else the one before's (an entry with no time keeps its place). */
function timed(entries: readonly AwayLogEntry[]): { atMs: number; lines: readonly string[] }[] {
  let last = 0;
  return entries.map((e) => {
    last = e.atMs ?? last;
    return { atMs: last, lines: e.lines };
  });
}

interface Walk {
  items: AwayItem[];
  before: AwayChecks | null;
  logLines: string[];
}

/** Reads a session's log from its start, keeping what happened from `fromMs` on. */
function walkLog(entries: readonly AwayLogEntry[], fromMs: number): Walk {
  const items: AwayItem[] = [];
  let before: AwayChecks | null = null;
  let lastChecks: AwayChecks | null = null;
  let open: AwayInterruption | null = null;
  /** The last episode that ended in a resume: a crash soon after continues it. */
  let settled: AwayInterruption | null = null;
  const logLines: string[] = [];
  // Every episode is kept until the end: one begun before the period counts when it ended in it or is still open.
  const keep = (item: AwayItem): void => void items.push(item);
  for (const entry of timed(entries)) {
    const inPeriod = entry.atMs >= fromMs;
    for (const line of entry.lines) {
      if (!isMoriLine(line)) {
        if (inPeriod) logLines.push(line);
        continue;
      }
      for (const fact of readAwayLine(line)) {
        const at = entry.atMs;
        const recent: AwayInterruption | null = settled !== null && settled.endedAtMs !== null && at - settled.endedAtMs <= CONTINUES_MS ? settled : null;
        switch (fact.kind) {
          case 'interrupted':
          case 'limited': {
            const episode: AwayInterruption | null = open ?? recent;
            if (episode !== null) {
              episode.times += 1;
              episode.outcome = 'open';
              episode.endedAtMs = null;
              open = episode;
              settled = null;
            } else {
              open = { kind: 'interruption', atMs: at, cause: fact.kind === 'limited' ? 'usage-limit' : fact.cause, words: fact.words, times: 1, outcome: 'open', endedAtMs: null, detail: '' };
              keep(open);
            }
            break;
          }
          case 'resumed':
          case 'handed-off':
          case 'stopped':
          case 'finished':
            if (open !== null) {
              open.outcome = fact.kind === 'resumed' ? RESUMED[fact.how] : fact.kind;
              open.endedAtMs = at;
              open.detail = fact.words;
              settled = fact.kind === 'resumed' ? open : null;
              open = null;
            }
            break;
          case 'attention': {
            const episode = open ?? recent;
            const detail = fact.message === '' ? fact.reason : `${fact.reason}: ${fact.message}`;
            if (episode !== null) Object.assign(episode, { outcome: 'attention', endedAtMs: at, detail });
            else keep({ kind: 'interruption', atMs: at, cause: 'attention', words: fact.reason, times: 1, outcome: 'attention', endedAtMs: at, detail });
            open = null;
            settled = null;
            break;
          }
          case 'checks': {
            const failing = fact.failing;
            const was = lastChecks?.failing ?? [];
            const run: AwayChecks = { kind: 'checks', atMs: at, text: fact.text, failing, wentRed: failing.filter((n) => !was.includes(n)), cameBack: was.filter((n) => !failing.includes(n)) };
            if (at < fromMs) before = run;
            else keep(run);
            lastChecks = run;
            break;
          }
        }
      }
    }
  }
  const inPeriod = (i: AwayItem): boolean => i.atMs >= fromMs || (i.kind === 'interruption' && (i.endedAtMs === null || i.endedAtMs >= fromMs));
  return { items: items.filter(inPeriod), before, logLines };
}

function usageIn(u: AwaySessionInput['usage'], fromDay: string): AwaySession['usage'] {
  if ('problem' in u) return u;
  const days = u.days.filter((d) => d.day >= fromDay);
  const sum = (k: 'requests' | 'cost' | 'tokens' | 'unpriced'): number => days.reduce((a, d) => a + d[k], 0);
  return { requests: sum('requests'), cost: sum('cost'), tokens: sum('tokens'), unpriced: sum('unpriced'), fromDay, priceTable: u.priceTable };
}

/** What needs the person now, from the session's intent and its checks: null when nothing does. */
function needsNow(s: AwaySessionInput, checksNow: AwayChecks | null, lastAttention: AwayInterruption | undefined): string | null {
  if (s.intent.kind === 'attention') return `needs attention (${s.intent.reason ?? 'unknown'})${lastAttention !== undefined && lastAttention.detail !== '' ? `: ${lastAttention.detail}` : ''}`;
  if (checksNow !== null && checksNow.failing.length > 0) return `checks red: ${checksNow.failing.join(', ')}`;
  if (s.intent.kind === 'interrupted') return `interrupted (${s.intent.reason ?? 'unknown'}), not resumed yet`;
  return null;
}

const needOrder = (why: string): number => (why.startsWith('needs attention') ? 0 : why.startsWith('checks red') ? 1 : 2);

/** The report: pure, from the inputs alone. */
export function buildAwayReport(input: AwayInput): AwayReport {
  // Work-log headings are to the minute: an entry headed in the period's first minute belongs to it.
  const fromMs = Math.floor(input.sinceMs / 60_000) * 60_000;
  const sessions: AwaySession[] = [];
  const quiet: string[] = [];
  for (const s of input.sessions) {
    const walk = walkLog(s.entries, fromMs);
    const checkpoints: AwayCheckpoint[] = s.checkpoints
      .filter((c) => c.atMs >= input.sinceMs)
      .map((c) => ({ kind: 'checkpoint', atMs: c.atMs, seq: c.seq, id: c.id, reason: c.reason, files: c.files }));
    // A stable sort: within a minute, the log's order stands, and a checkpoint goes after the log's lines of its minute.
    const timeline = [...walk.items, ...checkpoints].sort((a, b) => Math.floor(a.atMs / 60_000) - Math.floor(b.atMs / 60_000));
    const checks = walk.items.filter((i): i is AwayChecks => i.kind === 'checks');
    const checksNow = checks.at(-1) ?? walk.before;
    const lastAttention = walk.items.filter((i): i is AwayInterruption => i.kind === 'interruption' && i.outcome === 'attention').at(-1);
    const needs = needsNow(s, checksNow, lastAttention);
    if (timeline.length === 0 && needs === null && walk.logLines.length === 0) {
      quiet.push(s.name);
      continue;
    }
    sessions.push({
      id: s.id,
      name: s.name,
      agent: s.agent,
      needs,
      timeline,
      checksBefore: walk.before,
      checksNow,
      changes: s.changes === null || 'problem' in s.changes ? s.changes : { sinceSeq: s.changes.sinceSeq, files: [...s.changes.files] },
      usage: usageIn(s.usage, input.sinceDay),
      account: 'problem' in s.task ? s.task : { task: [...s.task.task], nextSteps: [...s.task.nextSteps], lastWorkingState: s.task.lastWorkingState, logLines: walk.logLines.slice(-ACCOUNT_LINES) },
    });
  }
  const needsYou = sessions
    .filter((s) => s.needs !== null)
    .map((s) => ({ session: s.name, why: s.needs as string }))
    .sort((a, b) => needOrder(a.why) - needOrder(b.why));
  // Sessions that need the person come first, in the same order.
  const order = (s: AwaySession): number => (s.needs === null ? 3 : needOrder(s.needs));
  return { sinceMs: input.sinceMs, nowMs: input.nowMs, sinceFrom: input.sinceFrom, needsYou, sessions: sessions.sort((a, b) => order(a) - order(b)), quiet };
}
