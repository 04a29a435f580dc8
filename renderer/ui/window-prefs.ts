// The window's own preferences, kept in this browser (localStorage), not with the daemon: whether
// the terminals run in xterm's screen-reader mode (their output mirrored into an accessibility tree
// a screen reader reads, at some cost per line), and the terminals' font size. Changes reach every
// live terminal at once. Runs in the renderer.

const SCREEN_READER_KEY = 'mori.screenReaderMode';
const listeners = new Set<(on: boolean) => void>();

export function screenReaderMode(): boolean {
  try {
    return localStorage.getItem(SCREEN_READER_KEY) === 'on';
  } catch {
    return false;
  }
}

export function setScreenReaderMode(on: boolean): void {
  try {
    localStorage.setItem(SCREEN_READER_KEY, on ? 'on' : 'off');
  } catch {
    // A browser that refuses storage: the mode holds for this page only.
  }
  for (const l of [...listeners]) l(on);
}

export function onScreenReaderMode(listener: (on: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const FONT_SIZE_KEY = 'mori.terminalFontSize';
/** xterm's text size when none was chosen: the size the terminal was designed at. */
export const DEFAULT_FONT_SIZE = 13;
/** Smaller is unreadable, larger leaves a laptop's terminal a few dozen columns wide. */
const MIN_FONT_SIZE = 8;
const MAX_FONT_SIZE = 32;
const fontListeners = new Set<(size: number) => void>();

export function terminalFontSize(): number {
  try {
    const n = Number(localStorage.getItem(FONT_SIZE_KEY));
    return Number.isInteger(n) && n >= MIN_FONT_SIZE && n <= MAX_FONT_SIZE ? n : DEFAULT_FONT_SIZE;
  } catch {
    return DEFAULT_FONT_SIZE;
  }
}

/** One step larger or smaller, within the bounds; kept for the next page and applied to every live terminal. */
export function stepTerminalFontSize(step: 1 | -1): number {
  const size = Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, terminalFontSize() + step));
  try {
    localStorage.setItem(FONT_SIZE_KEY, String(size));
  } catch {
    // A browser that refuses storage: the size holds for this page only.
  }
  for (const l of [...fontListeners]) l(size);
  return size;
}

export function onTerminalFontSize(listener: (size: number) => void): () => void {
  fontListeners.add(listener);
  return () => fontListeners.delete(listener);
}
