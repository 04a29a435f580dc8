// The window's keyboard shortcuts (DESIGN.md §13): which key does what, in one table the shortcuts
// list shows, and the decision for one key press. Keys typed into a terminal stay the agent's except
// these few (Tab, Escape and the rest reach the agent); `?` only where it would type nothing.
// Pure: runs in the renderer and in unit tests.

export type ShortcutAction = { kind: 'select'; index: number } | { kind: 'search' } | { kind: 'help' } | { kind: 'leave-terminal' } | { kind: 'palette' } | { kind: 'new-session' } | { kind: 'font-size'; step: 1 | -1 };

/** The shortcuts list, in the order shown. `Mod` is Ctrl, or ⌘ on a Mac. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Mod+K', does: 'Command palette: sessions and actions' },
  { keys: 'Mod+N', does: 'New session' },
  { keys: 'Mod+1 … Mod+9', does: 'Select the first … ninth session in the list' },
  { keys: '↑ / ↓', does: 'Move through the sessions list (never typed into a terminal)' },
  { keys: 'Enter', does: 'In the list or on the Terminal tab: type into the terminal' },
  { keys: 'F6', does: 'Leave the terminal for the sessions list' },
  { keys: 'Mod+F', does: 'Search the terminal (Enter: next, Shift+Enter: previous)' },
  { keys: 'Mod+= / Mod+−', does: 'Larger / smaller terminal text' },
  { keys: '?', does: 'This list of shortcuts' },
];

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * What a key press does in the window, or null when it is not a shortcut there. `typing` says the
 * focus is where `?` would be typed (a text field, an editor, a terminal); `mac` makes ⌘ the modifier.
 */
export function shortcutOf(e: KeyPress, where: { typing: boolean; inTerminal: boolean; mac: boolean }): ShortcutAction | null {
  const mod = where.mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  // `+` is Shift+= on most layouts, so Shift is allowed here only.
  if (mod && !e.altKey && (e.key === '=' || e.key === '+')) return { kind: 'font-size', step: 1 };
  if (mod && !e.altKey && !e.shiftKey && e.key === '-') return { kind: 'font-size', step: -1 };
  if (mod && !e.altKey && !e.shiftKey) {
    if (/^[1-9]$/.test(e.key)) return { kind: 'select', index: Number(e.key) - 1 };
    if (e.key.toLowerCase() === 'f') return { kind: 'search' };
    if (e.key.toLowerCase() === 'k') return { kind: 'palette' };
    if (e.key.toLowerCase() === 'n') return { kind: 'new-session' };
    return null;
  }
  if (e.key === 'F6' && !e.ctrlKey && !e.metaKey && !e.altKey && where.inTerminal) return { kind: 'leave-terminal' };
  if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !where.typing) return { kind: 'help' };
  return null;
}

/** A shortcut's keys as this machine reads them: `Mod` is ⌘ on a Mac, Ctrl elsewhere. */
export const keysWords = (keys: string, mac: boolean): string => keys.replaceAll('Mod', mac ? '⌘' : 'Ctrl');
