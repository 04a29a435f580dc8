// The sessions as the sidebar's list last showed them, for what refers to "the list's order" elsewhere
// in the window: Mod+1…9 pick among the shown (filtered) sessions, the palette lists them all in the
// list's order. The sidebar writes it on each render. Runs in the renderer.

let all: string[] = [];
let visible: string[] = [];

export function setShownOrder(allIds: string[], visibleIds: string[]): void {
  all = allIds;
  visible = visibleIds;
}

/** The id of the session at `index` among those the list shows (the filter's matches), or undefined. */
export const shownAt = (index: number): string | undefined => visible[index];

/** `items` in the list's order (every session, filtered or not); ones the list has not shown yet go last. */
export function inListOrder<T extends { id: string }>(items: readonly T[]): T[] {
  const at = new Map(all.map((id, i) => [id, i]));
  return [...items].sort((a, b) => (at.get(a.id) ?? Infinity) - (at.get(b.id) ?? Infinity));
}
