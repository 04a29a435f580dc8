// What the window's "While you were away" shows (DESIGN.md §9 "The report of the time away", §13):
// whether the report opens by itself when the window opens, and the report laid out as lines per
// session — what needs the person first, the timeline with its times and outcomes, the checks before
// and now, the files changed, the usage, the agent's own account (its text as written: the component
// shows it through ui/shown-text.tsx). The words are common/away-words.ts's, as `mori report` says
// them. Pure: no DOM, no API.
import type { AwayItem, AwayReport, AwaySession } from '../../common/away-report.js';
import { awayChecksLine, awayItemText, awayUsageText } from '../../common/away-words.js';

/**
 * A last look more recent than this is not time away: the person was at the window a moment ago
 * (a reload, a tab reopened) and its notices told them what happened meanwhile.
 */
export const AWAY_MIN_MS = 10 * 60_000;

/** What the window does with the report it reads on opening: show it, start its mark, or leave both. */
export type OnOpen = 'show' | 'mark' | 'leave';

/**
 * Something happened in the period: an item in a session's timeline. What needs the person alone is
 * not news (a session left in attention before the last look was seen then; the list still shows it).
 */
export const hasNews = (r: AwayReport): boolean => r.sessions.some((s) => s.timeline.length > 0);

/**
 * On opening: the report is shown when there is news since a last look long enough ago; with no
 * mark yet (the window's first look) or nothing new, the look is recorded so that the next opening
 * counts from it; a recent look with news leaves the mark where it is.
 */
export function onOpen(r: AwayReport): OnOpen {
  if (r.sinceFrom !== 'last-looked') return 'mark';
  if (!hasNews(r)) return 'mark';
  return r.nowMs - r.sinceMs >= AWAY_MIN_MS ? 'show' : 'leave';
}

export type Tone = 'bad' | 'good' | 'plain';

export interface ItemView {
  /** "23:14", or "Sat 23:14" when the period spans days; an interruption's end after it: "Sun 00:10–00:40". */
  time: string;
  text: string;
  tone: Tone;
}

export interface SessionView {
  id: string;
  /** "web (claude)". */
  title: string;
  items: ItemView[];
  checks: string | null;
  /** The files changed since the period's first checkpoint, or why they are not known; null: no checkpoint. */
  changes: { heading: string; files: string[] } | { problem: string } | null;
  usage: string;
  /** The agent's own words: session_state.md's task and next steps, its work log's last lines. */
  account: { task: string[]; nextSteps: string[]; logLines: string[] } | { problem: string };
}

export interface AwayView {
  /** "Since 21:00 yesterday (your last look)". */
  since: string;
  needsYou: { session: string; why: string }[];
  sessions: SessionView[];
  /** "Nothing happened in: docs, infra", or null. */
  quiet: string | null;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const sameDay = (a: Date, b: Date): boolean => a.toDateString() === b.toDateString();

/** A time of the period in local time, with its weekday when the period spans days. */
export function clock(ms: number, spansDays: boolean): string {
  const d = new Date(ms);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return spansDays ? `${DAYS[d.getDay()] ?? ''} ${hm}` : hm;
}

function sinceWords(r: AwayReport): string {
  const since = new Date(r.sinceMs);
  const now = new Date(r.nowMs);
  const yesterday = new Date(r.nowMs - 86_400_000);
  const day = sameDay(since, now) ? 'today' : sameDay(since, yesterday) ? 'yesterday' : since.toLocaleDateString();
  const from = r.sinceFrom === 'last-looked' ? 'your last look' : r.sinceFrom === 'given' ? 'the time asked' : 'no earlier look';
  return `Since ${clock(r.sinceMs, false)} ${day} (${from})`;
}

/** When an item happened: an interruption from its start to its end (its day again only when another). */
function when(i: AwayItem, spansDays: boolean): string {
  const start = clock(i.atMs, spansDays);
  if (i.kind !== 'interruption' || i.endedAtMs === null || Math.floor(i.endedAtMs / 60_000) === Math.floor(i.atMs / 60_000)) return start;
  return `${start}–${clock(i.endedAtMs, !sameDay(new Date(i.atMs), new Date(i.endedAtMs)))}`;
}

function tone(i: AwayItem): Tone {
  if (i.kind === 'checkpoint') return 'plain';
  if (i.kind === 'checks') return i.failing.length > 0 ? 'bad' : i.cameBack.length > 0 ? 'good' : 'plain';
  return i.outcome === 'open' || i.outcome === 'attention' ? 'bad' : 'good';
}

function sessionView(s: AwaySession, spansDays: boolean): SessionView {
  const changes: SessionView['changes'] =
    s.changes === null ? null : 'problem' in s.changes ? s.changes : { heading: `Files changed since checkpoint #${s.changes.sinceSeq}`, files: s.changes.files.map((f) => `${f.path} (${f.kind})`) };
  return {
    id: s.id,
    title: `${s.name} (${s.agent})`,
    items: s.timeline.map((i) => ({ time: when(i, spansDays), text: awayItemText(i), tone: tone(i) })),
    checks: awayChecksLine(s),
    changes,
    usage: awayUsageText(s.usage),
    account: 'problem' in s.account ? s.account : { task: s.account.task, nextSteps: s.account.nextSteps, logLines: s.account.logLines },
  };
}

export function awayView(r: AwayReport): AwayView {
  const spansDays = !sameDay(new Date(r.sinceMs), new Date(r.nowMs));
  return {
    since: sinceWords(r),
    needsYou: r.needsYou,
    sessions: r.sessions.map((s) => sessionView(s, spansDays)),
    quiet: r.quiet.length > 0 ? `Nothing happened in: ${r.quiet.join(', ')}` : null,
  };
}
