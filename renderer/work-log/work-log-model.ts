// The work log's pages as the pane keeps them (DESIGN.md §3): the newest page replaces what overlaps
// it and keeps the older pages already shown; an older page goes before them. Pure. Runs in the renderer.
import type { LogEntry } from '../../common/ipc.js';

/** The entries shown once the newest page is read. */
export function withNewest(shown: readonly LogEntry[], newest: readonly LogEntry[]): LogEntry[] {
  const first = newest[0]?.index ?? Infinity;
  return [...shown.filter((e) => e.index < first), ...newest];
}

/** The entries shown once a page of those before `before` is read. */
export function withOlder(shown: readonly LogEntry[], older: readonly LogEntry[], before: number): LogEntry[] {
  return [...older, ...shown.filter((e) => e.index >= before)];
}
