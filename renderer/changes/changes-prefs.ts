// The Changes tab's preferences, kept in this browser (ui/stored-prefs.ts): the changed-files list's
// height and how a modified file's diff is laid out (unified or side by side). Runs in the renderer.
import { choicePref, sizePref } from '../ui/stored-prefs.js';

export type DiffLayout = 'unified' | 'split';

/** The list's height when none is kept: about eight files, with the checkpoints still in view at 1280×720. */
export const DEFAULT_HEIGHT = 220;
/** Lower, the list shows less than two files under its heading. */
export const MIN_HEIGHT = 80;
/** Higher leaves the checkpoints no room on a laptop screen (the CSS also keeps 120 px for them). */
export const MAX_HEIGHT = 640;
/** One arrow key press: about one file's row. */
export const HEIGHT_STEP = 24;
/** Shift with an arrow: a bigger step. */
export const HEIGHT_BIG_STEP = 96;

const height = sizePref('mori.changesFilesHeight', { fallback: DEFAULT_HEIGHT, min: MIN_HEIGHT, max: MAX_HEIGHT });
export const clampHeight = height.clamp;
export const storedHeight = height.stored;
export const storeHeight = height.store;

const layout = choicePref<DiffLayout>('mori.changesDiffLayout', ['unified', 'split'], 'unified');
export const storedLayout = layout.stored;
export const storeLayout = layout.store;
