// The Changes tab's preferences, kept in this browser (localStorage): the changed-files list's height
// and how a modified file's diff is laid out (unified or side by side). A stored value that is not
// one of ours (another version's, or edited by hand) reads as the default. Runs in the renderer.

export type DiffLayout = 'unified' | 'split';

const HEIGHT_KEY = 'mori.changesFilesHeight';
const LAYOUT_KEY = 'mori.changesDiffLayout';

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

export const clampHeight = (px: number): number => Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, px)));

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

export function storedHeight(): number {
  const n = Number(read(HEIGHT_KEY));
  return Number.isFinite(n) && n > 0 ? clampHeight(n) : DEFAULT_HEIGHT;
}

export const storeHeight = (px: number): void => write(HEIGHT_KEY, String(clampHeight(px)));

export const storedLayout = (): DiffLayout => (read(LAYOUT_KEY) === 'split' ? 'split' : 'unified');

export const storeLayout = (l: DiffLayout): void => write(LAYOUT_KEY, l);
