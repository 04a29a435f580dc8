// The window's sessions list order, kept stable (DESIGN.md §13): by name, or by last activity newest
// first, as placed when a row first appears; from then on a row stays where it is whatever its state
// does (a state change never moves a row, so Mod+1…9 keep their meaning): only a new or renamed
// session is placed, among the others. What needs the person is shown by a badge and the "Needs you"
// group above the list (needsYouRows), not by moving rows. Changing the order key places every row
// afresh. Pure TypeScript.
import type { LiveSession } from './ipc.js';
import { byNeed, needsPerson, stateWord } from './session-view.js';

export type SortKey = 'name' | 'activity';

export type Orderable = Pick<LiveSession, 'id' | 'name' | 'state' | 'activity'>;

/** What the last order was made of: each row's id and name, in the order shown. */
export interface OrderMemory {
  key: SortKey;
  rows: { id: string; name: string }[];
}

/** The order's comparison from scratch: the key, then the name. The state plays no part. */
export function compareSessions(a: Orderable, b: Orderable, key: SortKey, lastActivity: ReadonlyMap<string, number>): number {
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
 * another key) it is the order from scratch; otherwise each row whose name is as it was keeps its
 * place relative to the others, and the rest are put where the comparison places them among those.
 */
export function steadyOrder<T extends Orderable>(sessions: readonly T[], key: SortKey, lastActivity: ReadonlyMap<string, number>, memory: OrderMemory | null): { order: T[]; memory: OrderMemory } {
  const cmp = (a: T, b: T): number => compareSessions(a, b, key, lastActivity);
  const before = memory && memory.key === key ? new Map(memory.rows.map((r, i) => [r.id, { ...r, at: i }])) : new Map<string, { name: string; at: number }>();
  const kept: T[] = [];
  const placed: T[] = [];
  for (const s of sessions) {
    const was = before.get(s.id);
    if (was && was.name === s.name) kept.push(s);
    else placed.push(s);
  }
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
  return { order, memory: { key, rows: order.map((s) => ({ id: s.id, name: s.name })) } };
}

/** The sessions that need the person, most urgent first (session-view's need order), then by name: the "Needs you" group. */
export function needsYouRows<T extends Orderable>(sessions: readonly T[]): T[] {
  return sessions.filter((s) => needsPerson(stateWord(s))).sort((a, b) => byNeed(a, b) || collator.compare(a.name, b.name));
}
