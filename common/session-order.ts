// The window's sessions list order, kept steady (DESIGN.md §13): sessions that need the person first
// (in common/session-view.ts's need order), then by name or by last activity, newest first. Rows
// stay where they are while their agent flips between working and waiting: only a session that
// enters or leaves the needs-the-person group (or is new, or renamed) is placed again; the others
// keep the places they had. Changing the order key places every row afresh. Pure TypeScript.
import type { SessionInfo } from './ipc.js';
import { byNeed, needsPerson, stateWord } from './session-view.js';

export type SortKey = 'name' | 'activity';

export type Orderable = Pick<SessionInfo, 'id' | 'name' | 'state' | 'activity'>;

/** 0: the session needs the person; 1: it does not. The only change that moves a placed row. */
export const needGroup = (s: Pick<SessionInfo, 'state' | 'activity'>): 0 | 1 => (needsPerson(stateWord(s)) ? 0 : 1);

/** What the last order was made of: each row's id, group and name, in the order shown. */
export interface OrderMemory {
  key: SortKey;
  rows: { id: string; group: 0 | 1; name: string }[];
}

/** The order's comparison from scratch: group, the need order within the needing group, then the key, then the name. */
export function compareSessions(a: Orderable, b: Orderable, key: SortKey, lastActivity: ReadonlyMap<string, number>): number {
  const ga = needGroup(a);
  const g = ga - needGroup(b);
  if (g !== 0) return g;
  if (ga === 0) {
    const n = byNeed(a, b);
    if (n !== 0) return n;
  }
  if (key === 'activity') {
    const t = (lastActivity.get(b.id) ?? 0) - (lastActivity.get(a.id) ?? 0);
    if (t !== 0) return t;
  }
  return collator.compare(a.name, b.name) || collator.compare(a.id, b.id);
}

/** localeCompare's order with one collator for every comparison (a list of a hundred makes thousands). */
const collator = new Intl.Collator();

/**
 * The sessions in the list's order, and what to remember for the next call. With no memory (or
 * another key) it is the order from scratch; otherwise each row whose group and name are as they
 * were keeps its place relative to the others, and the rest are put where the comparison places
 * them among those.
 */
export function steadyOrder<T extends Orderable>(sessions: readonly T[], key: SortKey, lastActivity: ReadonlyMap<string, number>, memory: OrderMemory | null): { order: T[]; memory: OrderMemory } {
  const cmp = (a: T, b: T): number => compareSessions(a, b, key, lastActivity);
  const before = memory && memory.key === key ? new Map(memory.rows.map((r, i) => [r.id, { ...r, at: i }])) : new Map<string, { group: 0 | 1; name: string; at: number }>();
  const kept: T[] = [];
  const placed: T[] = [];
  for (const s of sessions) {
    const was = before.get(s.id);
    if (was && was.group === needGroup(s) && was.name === s.name) kept.push(s);
    else placed.push(s);
  }
  // The kept rows in their old order; their group is unchanged, so groups stay together.
  kept.sort((a, b) => (before.get(a.id)?.at ?? 0) - (before.get(b.id)?.at ?? 0));
  placed.sort(cmp);
  // Nothing kept (the first list, another key): the sorted rows are the order, without placing each
  // one by a scan of those before it.
  const order = kept.length === 0 ? placed : kept;
  if (order === kept) {
    for (const s of placed) {
      const i = order.findIndex((o) => cmp(s, o) < 0);
      order.splice(i === -1 ? order.length : i, 0, s);
    }
  }
  return { order, memory: { key, rows: order.map((s) => ({ id: s.id, group: needGroup(s), name: s.name })) } };
}
