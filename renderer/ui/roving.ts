// Keyboard movement in a row of tabs with a roving tabindex (WAI-ARIA tabs pattern): the arrows move
// to the neighbour (wrapping), Home to the first, End to the last. Runs in the renderer.

/** The index a key moves to from `index` among `count` tabs, or null when the key is not a move. */
export function rovingIndex(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowRight') return (index + 1) % count;
  if (key === 'ArrowLeft') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}
