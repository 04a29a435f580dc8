// Which notifications to show (DESIGN.md §13), decided from a batch of daemon events and the
// sessions as they are after it: one per transition into a condition the person must hear about
// (needs input, crash loop, verification failed, attention, usage limit, resumed after sleep or an
// outage, a conversation past the context share set), never again while the condition stays; several sessions making the same transition in
// one batch make one notification ("3 sessions resumed after sleep"). Nothing for a muted session,
// for the session the person is looking at in the focused window, or while notifications are
// paused, nor for a condition already so when its session was first seen (a remote's first listing)
// — and those conditions still count as told, so un-pausing or reconnecting does not replay them. A
// remote's session is named `host:session`, so its notification names the host. A hand-off is no
// interruption: the agent it ends is not told as resumed afterwards. Notices off the machine (the
// daemon's targets, DESIGN.md §13 "Notices off the machine") also hear of a session that finished,
// one handed to another agent, and one resumed after its usage limit; the desktop's stay as they were.
// Pure TypeScript: the app's main process and the daemon decide with it.
import type { DaemonEvent } from './ipc.js';
import { clockWords, resumedAfterAbsence, sessionStatus, type WatchedSession } from './session-view.js';
import { contextOverWords } from './usage-figures.js';

/**
 * How long changes are gathered before deciding: a wake resumes sessions one after another (the
 * daemon staggers their starts), and those within this window make one notification. Short enough
 * that a single session's news is not noticeably late.
 */
export const COALESCE_MS = 3_000;

/** The transitions only notices off the machine tell (a desktop notice for each would be noise beside the window). */
export const OFF_MACHINE_TRANSITIONS = ['finished', 'handed-off', 'limit-resumed'] as const;

export interface Notice {
  /** The settings' kind (`needs-input`, `usage-limit`, `finished`…; `attention` always notifies): what a target chooses by. */
  kind: string;
  title: string;
  body: string;
  /** The session a click opens, or null (several sessions: the window opens on the list). */
  session: string | null;
  sessions: string[];
}

export interface DeciderMemory {
  /** Per session id: the condition last seen (notified or not), so an unchanged one is not repeated. */
  readonly seen: ReadonlyMap<string, string>;
  /** Per session id: why it was interrupted, until it is resumed. */
  readonly interruptedBy: ReadonlyMap<string, string>;
}

export const emptyMemory = (): DeciderMemory => ({ seen: new Map(), interruptedBy: new Map() });

export interface DecideInput {
  rows: readonly WatchedSession[];
  /** The events since the previous decision, oldest first. */
  events: readonly DaemonEvent[];
  now: number;
  /** The session shown in the window while the window has focus, else null. */
  focusedSession: string | null;
  muted: ReadonlySet<string>;
  /** Sessions whose conditions were already so when first seen (a remote's first listing): taken as told. */
  quiet?: ReadonlySet<string>;
  pausedUntil: number | null;
  /** The daemon's notification settings both UIs share (null before they are read): its pause, and which kinds notify. */
  daemonNotifications?: { paused: boolean; events: readonly string[] } | null;
  /**
   * For notices off the machine: the transitions only they tell too (finished, handed off, resumed
   * after a usage limit), and no line read from the agent's screen (a usage limit's own words).
   */
  offMachine?: boolean;
}

/** The settings' kind of a candidate's group ("usage-limit", "resumed:sleep" → "resumed"); `attention` always notifies. */
const kindOf = (group: string): string => (group === 'limit-resumed' ? 'usage-limit' : (group.split(':')[0] ?? group));

interface Candidate {
  /** Equal groups in one batch make one notice; the kind is the group's (kindOf). */
  group: string;
  row: WatchedSession;
  title: string;
  body: string;
  plural: (n: number) => string;
}

const lastLine = (text: string): string => text.trim().split('\n').filter(Boolean).at(-1) ?? '';

function conditionCandidate(row: WatchedSession, key: string, offMachine: boolean): Candidate {
  const name = row.info.name;
  switch (key.split(':')[0]) {
    case 'needs-input':
      return { group: key, row, title: `${name} needs input`, body: 'The agent is waiting for an answer.', plural: (n) => `${n} sessions need input` };
    case 'crash-loop':
      return { group: key, row, title: `${name} is in a crash loop`, body: row.attention?.message ?? '', plural: (n) => `${n} sessions are in a crash loop` };
    case 'verify-failed':
      return { group: key.split(':')[0] ?? key, row, title: `${name}: verification failed`, body: lastLine(row.verify?.summary ?? ''), plural: (n) => `${n} sessions failed verification` };
    case 'usage-limit': {
      const plan = row.info.usageLimit;
      const when = plan ? `, ${plan.resetAt !== null ? 'resumes' : 'retrying'} at ${clockWords(plan.resumeAt)}` : '';
      // The limit's own words are a line of the agent's screen: told at the desk, never sent off the machine.
      const body = offMachine ? (plan ? '' : (row.attention?.message ?? '')) : (plan?.text ?? row.attention?.message ?? '');
      return { group: 'usage-limit', row, title: `${name}: usage limit${when}`, body, plural: (n) => `${n} sessions hit their usage limit` };
    }
    default:
      return { group: 'attention', row, title: `${name} needs you`, body: row.attention?.message ?? '', plural: (n) => `${n} sessions need you` };
  }
}

function conditionKey(row: WatchedSession): string | null {
  const s = sessionStatus(row);
  if (s.notable === null) return null;
  if (s.notable === 'attention') return `attention:${row.attention?.reason ?? ''}`;
  if (s.notable === 'verify-failed') return `verify-failed:${row.verify?.summary ?? ''}`;
  // One notification per limit: a refined reset time is the same limit, a limit met again is a new one.
  if (s.notable === 'usage-limit') return `usage-limit:${row.info.usageLimit?.detectedAt ?? ''}`;
  return s.notable;
}

export function decideNotifications(memory: DeciderMemory, input: DecideInput): { memory: DeciderMemory; notices: Notice[] } {
  const byId = new Map(input.rows.map((r) => [r.info.id, r]));
  const interruptedBy = new Map(memory.interruptedBy);
  const candidates: Candidate[] = [];

  const all = input.offMachine === true;
  for (const e of input.events) {
    if (e.type === 'session.interrupted') interruptedBy.set(e.sessionId, e.reason);
    // A limit met while the agent ran is told once by its condition; its end is the resume after it.
    if (e.type === 'session.limited') interruptedBy.set(e.sessionId, 'usage-limit');
    // The interrupted agent is gone, ended by the hand-off: what follows is another agent's run, not
    // the interrupted one resumed (the hand-off is told by its own notice).
    if (e.type === 'session.handedOff') {
      interruptedBy.delete(e.sessionId);
      const row = byId.get(e.sessionId);
      if (all && row) candidates.push({ group: 'handed-off', row, title: `${row.info.name} continues with ${e.to}`, body: `Handed over from ${e.from}: ${e.reason}.`, plural: (n) => `${n} sessions were handed to another agent` });
    }
    if (e.type === 'session.exited' && e.outcome === 'finished') {
      const row = byId.get(e.sessionId);
      if (all && row) candidates.push({ group: 'finished', row, title: `${row.info.name} finished`, body: lastLine(row.verify?.summary ?? '') || 'The agent ended its run.', plural: (n) => `${n} sessions finished` });
    }
    if (e.type === 'session.contextOver') {
      const row = byId.get(e.sessionId);
      const w = contextOverWords(e.name, e.share, e.warn, e.model);
      if (row) candidates.push({ group: 'context-over', row, title: w.title, body: w.body, plural: (n) => `${n} sessions are past their context share` });
    }
    if (e.type === 'session.resumed') {
      const reason = interruptedBy.get(e.sessionId);
      interruptedBy.delete(e.sessionId);
      const row = byId.get(e.sessionId);
      const away = resumedAfterAbsence(reason);
      if (row && reason && away !== null) {
        candidates.push({ group: `resumed:${reason}`, row, title: `${row.info.name} resumed ${away}`, body: lastLine(row.verify?.summary ?? ''), plural: (n) => `${n} sessions resumed ${away}` });
      }
      if (all && row && reason === 'usage-limit') {
        candidates.push({ group: 'limit-resumed', row, title: `${row.info.name} resumed after its usage limit`, body: '', plural: (n) => `${n} sessions resumed after their usage limit` });
      }
    }
  }

  const seen = new Map<string, string>();
  for (const row of input.rows) {
    const key = conditionKey(row);
    if (key === null) continue;
    seen.set(row.info.id, key);
    if (memory.seen.get(row.info.id) !== key) candidates.push(conditionCandidate(row, key, all));
  }

  const shared = input.daemonNotifications ?? null;
  const paused = (input.pausedUntil !== null && input.now < input.pausedUntil) || shared?.paused === true;
  const wanted = (c: Candidate): boolean => shared === null || kindOf(c.group) === 'attention' || shared.events.includes(kindOf(c.group));
  const quiet = input.quiet ?? new Set<string>();
  const shown = candidates.filter((c) => !paused && wanted(c) && !input.muted.has(c.row.info.id) && !quiet.has(c.row.info.id) && c.row.info.id !== input.focusedSession);
  const groups = new Map<string, Candidate[]>();
  for (const c of shown) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  const notices: Notice[] = [];
  for (const list of groups.values()) {
    const first = list[0];
    if (!first) continue;
    const kind = kindOf(first.group);
    if (list.length === 1) notices.push({ kind, title: first.title, body: first.body, session: first.row.info.id, sessions: [first.row.info.id] });
    else notices.push({ kind, title: first.plural(list.length), body: list.map((c) => c.row.info.name).join(', '), session: null, sessions: list.map((c) => c.row.info.id) });
  }
  return { memory: { seen, interruptedBy }, notices };
}

/** The end of a pause: one hour from now, or tomorrow at 08:00 local time (the start of a working day). */
export function pauseUntil(kind: 'hour' | 'tomorrow', now: number): number {
  if (kind === 'hour') return now + 60 * 60 * 1000;
  const d = new Date(now);
  d.setDate(d.getDate() + 1);
  d.setHours(8, 0, 0, 0);
  return d.getTime();
}
