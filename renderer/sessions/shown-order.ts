// The sessions list's order, kept for the whole window: the sidebar's list shows it, and what refers
// to "the list's order" elsewhere follows it: Mod+1…9 pick among the shown (filtered) sessions, the
// palette lists them all in that order, and a window with no session selected selects its first. It
// holds the steady order's memory (common/session-order.ts), so every caller sees the same order.
// Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import { steadyOrder, type OrderMemory, type SortKey } from '../../common/session-order.js';
import { groupByProject, type ProjectGroup } from './session-groups.js';
import { storedSort } from './sidebar-prefs.js';

let memory: OrderMemory | null = null;
let key: SortKey | null = null;
let activity: ReadonlyMap<string, number> = new Map();
let visible: string[] = [];

/** The sessions in the list's order, by project folder; the sidebar passes its order key and the last activity it knows. */
export function listGroups(sessions: readonly LiveSession[], sortKey?: SortKey, lastActivity?: ReadonlyMap<string, number>): ProjectGroup<LiveSession>[] {
  if (sortKey) key = sortKey;
  if (lastActivity) activity = lastActivity;
  const r = steadyOrder(sessions, (key ??= storedSort()), activity, memory);
  memory = r.memory;
  return groupByProject(r.order);
}

/** The sidebar says which sessions its list shows now (the filter's matches), in order. */
export function setShown(ids: string[]): void {
  visible = ids;
}

/** The id of the session at `index` among those the list shows, or undefined. */
export const shownAt = (index: number): string | undefined => visible[index];

/** `sessions` in the list's order (every one, filtered or not). */
export const inListOrder = (sessions: readonly LiveSession[]): LiveSession[] => listGroups(sessions).flatMap((g) => g.sessions);
