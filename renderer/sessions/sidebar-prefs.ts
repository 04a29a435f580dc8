// The sidebar's preferences, kept in this browser (ui/stored-prefs.ts): its width, and whether the
// list orders by name or by last activity after what needs the person. Runs in the renderer.
import type { SortKey } from '../../common/session-order.js';
import { choicePref, sizePref } from '../ui/stored-prefs.js';

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

const width = sizePref('mori.sidebarWidth', { fallback: DEFAULT_WIDTH, min: MIN_WIDTH, max: MAX_WIDTH });
export const clampWidth = width.clamp;
export const storedWidth = width.stored;
export const storeWidth = width.store;

const sort = choicePref<SortKey>('mori.sessionsOrder', ['name', 'activity'], 'name');
export const storedSort = sort.stored;
export const storeSort = sort.store;
