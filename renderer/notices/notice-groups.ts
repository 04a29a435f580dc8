// The window's notices, grouped (DESIGN.md §13): one group per session and interruption episode
// (common/interruption-episodes.ts: from an interruption until it is resumed and running again, or
// given up), which says how it is going while it lasts and its outcome once; every other notice
// (notices.ts) is a group of its own, or adds to the newest one when it says the same again. The
// person dismisses a group or clears them all. Fed lists of events, so the daemon's history and the
// live events go through the same door. Pure: runs in the renderer and in unit tests.
import { stepEpisodes, type Episode, type EpisodeChange, type OpenEpisodes } from '../../common/interruption-episodes.js';
import type { DaemonEvent } from '../../common/ipc.js';
import { attentionKind, resumedAfterAbsence } from '../../common/session-view.js';
import { noticeFor, type Notice } from './notices.js';

export interface NoticeGroup {
  key: string;
  sessionId: string | null;
  name: string | null;
  /** The settings' kind of notice, for the browser's notification. */
  kind: Notice['kind'];
  title: string;
  body: string;
  /** When it last changed. */
  at: number;
  /** How many notices it holds (2 and more: "×3"). */
  count: number;
  /** An episode's state: still open, or how it ended; null for a group that is not an episode. */
  outcome: 'ongoing' | 'resumed' | 'gave-up' | 'stopped' | null;
}

export interface NoticeBook {
  /** Newest first. */
  readonly groups: readonly NoticeGroup[];
  readonly open: OpenEpisodes;
}

/** Groups kept in the page: the latest ones; older news is in each session's work log. */
export const MAX_GROUPS = 100;

export const emptyBook = (): NoticeBook => ({ groups: [], open: new Map() });

/** Why the episode began, as the end of "X resumed …". */
const AFTER: Record<Episode['reason'], string> = {
  sleep: 'after sleep',
  network: 'after a network outage',
  reboot: 'after a restart of the machine',
  crash: 'after a crash',
  'app-exit': 'after Mori was closed',
  'supervisor-stopped': 'after Mori was stopped',
  'usage-limit': 'after its usage limit',
  asked: 'when you started it again',
};

const INTERRUPTED: Record<Episode['reason'], string> = {
  sleep: 'The machine went to sleep',
  network: 'The network went down',
  reboot: 'The machine restarted',
  crash: 'The agent crashed',
  'app-exit': 'Mori was closed',
  'supervisor-stopped': 'Mori was stopped',
  'usage-limit': 'The agent hit its usage limit',
  asked: 'It was stopped until you started it again',
};

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

const episodeKey = (ep: Episode): string => `episode:${ep.sessionId}:${ep.startedAt}`;

/** An episode's group as the change leaves it; whether the browser is told (an outcome the desktop would tell too). */
function episodeGroup(change: EpisodeChange, previous: NoticeGroup | undefined): { group: NoticeGroup; tell: boolean } {
  const ep = change.episode;
  const base = { key: episodeKey(ep), sessionId: ep.sessionId, name: ep.name, count: (previous?.count ?? 0) + 1 };
  if (change.kind !== 'closed') {
    const so = ep.resumes === 0 ? 'Mori resumes it.' : `Resumed ${times(ep.resumes)} so far.`;
    return { group: { ...base, kind: 'resumed', title: `${ep.name} interrupted`, body: `${INTERRUPTED[ep.reason]}. ${so}`, at: ep.resumedAt ?? ep.startedAt, outcome: 'ongoing' }, tell: false };
  }
  const at = change.at;
  if (change.outcome === 'resumed') {
    const tries = ep.resumes > 1 ? ` after ${ep.resumes} restarts` : '';
    const group: NoticeGroup = { ...base, kind: 'resumed', title: `${ep.name} resumed ${AFTER[ep.reason]}`, body: `Running again${tries}.`, at, outcome: 'resumed' };
    // The same rule as the app's notifications: a resume is news when the person was away, not after
    // a crash; and once an episode (a continued episode that recovers again is not news again).
    return { group, tell: ep.recoveries === 1 && resumedAfterAbsence(ep.reason) !== null };
  }
  if (change.outcome === 'stopped') {
    return { group: { ...base, kind: 'resumed', title: `${ep.name} stopped`, body: `Stopped while interrupted (${INTERRUPTED[ep.reason].toLowerCase()}).`, at, outcome: 'stopped' }, tell: false };
  }
  const kind = change.reason === undefined ? 'attention' : attentionKind(change.reason);
  const what = kind === 'crash-loop' ? 'crash loop, not restarting' : kind === 'usage-limit' ? 'usage limit reached' : 'needs you';
  const resumed = ep.resumes > 0 ? ` Resumed ${times(ep.resumes)} before.` : '';
  return { group: { ...base, kind, title: `${ep.name}: ${what}`, body: `${capital(change.message)}.${resumed}`, at, outcome: 'gave-up' }, tell: true };
}

/** A notice that is not part of an episode, added to the newest group when that one said the same. */
function addNotice(groups: NoticeGroup[], n: Notice): NoticeGroup {
  const top = groups[0];
  if (top && top.outcome === null && top.sessionId === n.sessionId && top.kind === n.kind && top.title === n.title) {
    const group = { ...top, body: n.body, at: n.at, count: top.count + 1 };
    groups[0] = group;
    return group;
  }
  const group: NoticeGroup = { key: `notice:${n.id}`, sessionId: n.sessionId, name: n.name, kind: n.kind, title: n.title, body: n.body, at: n.at, count: 1, outcome: null };
  groups.unshift(group);
  return group;
}

/** The book after a list of events, oldest first, and the groups that are news to tell (new, or an episode's outcome). */
export function takeEvents(book: NoticeBook, events: readonly DaemonEvent[]): { book: NoticeBook; told: NoticeGroup[] } {
  let open = book.open;
  const groups = [...book.groups];
  const told: NoticeGroup[] = [];
  for (const e of events) {
    const stepped = stepEpisodes(open, e);
    open = stepped.open;
    const change = stepped.change;
    // Within an episode every event (a crash loop's "resumed" each time included) changes its one group.
    if (change) {
      const key = episodeKey(change.episode);
      const at = groups.findIndex((g) => g.key === key);
      const { group, tell } = episodeGroup(change, groups[at]);
      // An episode's group comes to the top whenever it changes.
      if (at >= 0) groups.splice(at, 1);
      groups.unshift(group);
      if (tell) told.push(group);
      continue;
    }
    const n = noticeFor(e);
    if (n) told.push(addNotice(groups, n));
  }
  return { book: { groups: groups.slice(0, MAX_GROUPS), open }, told };
}

/** The book with a notice of the window's own (a request not answered in time) on top. */
export function takeNotice(book: NoticeBook, n: Notice): NoticeBook {
  const groups = [...book.groups];
  addNotice(groups, n);
  return { ...book, groups: groups.slice(0, MAX_GROUPS) };
}

/** The book without one group; an episode still open goes on (its next change shows it again). */
export const dismissGroup = (book: NoticeBook, key: string): NoticeBook => ({ ...book, groups: book.groups.filter((g) => g.key !== key) });

/** The book with no groups; open episodes go on. */
export const clearGroups = (book: NoticeBook): NoticeBook => ({ ...book, groups: [] });
