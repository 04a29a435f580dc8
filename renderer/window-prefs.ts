// The window's own preferences, kept in this browser (localStorage), not with the daemon: today
// whether the terminals run in xterm's screen-reader mode (their output mirrored into an
// accessibility tree a screen reader reads, at some cost per line). Changes reach every live
// terminal at once. Runs in the renderer.

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
