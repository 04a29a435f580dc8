// The sidebar's preferences, kept in this browser (localStorage): its width, and whether the list
// orders by name or by last activity after what needs the person. A stored value that is not one
// of ours (another version's, or edited by hand) reads as the default. Runs in the renderer.
import type { SortKey } from '../../common/session-order.js';

const WIDTH_KEY = 'mori.sidebarWidth';
const SORT_KEY = 'mori.sessionsOrder';

/** The sidebar's width when none is kept: room for a session's name, state and project. */
export const DEFAULT_WIDTH = 300;
/** Narrower, the session's state no longer fits beside its name. */
export const MIN_WIDTH = 200;
/** Wider than this leaves the terminal too few columns on a laptop screen. */
export const MAX_WIDTH = 600;
/** One arrow key press: small enough to place it, large enough not to need many. */
export const WIDTH_STEP = 16;
/** Shift with an arrow: a bigger step. */
export const WIDTH_BIG_STEP = 64;

export const clampWidth = (px: number): number => Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, px)));

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // A browser that refuses storage: the choice holds for this page only.
  }
}

export function storedWidth(): number {
  const n = Number(read(WIDTH_KEY));
  return Number.isFinite(n) && n > 0 ? clampWidth(n) : DEFAULT_WIDTH;
}

export const storeWidth = (px: number): void => write(WIDTH_KEY, String(clampWidth(px)));

export const storedSort = (): SortKey => (read(SORT_KEY) === 'activity' ? 'activity' : 'name');

export const storeSort = (key: SortKey): void => write(SORT_KEY, key);
