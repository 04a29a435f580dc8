// The window's theme (DESIGN.md §13): the system's, or light or dark as chosen in Settings or the
// palette, kept in this browser (localStorage) and applied at once: the page's colours through
// `data-theme` on the root (styles.css picks each variable's light or dark value by it), the
// terminals and the editors through `onDarkChange`. Runs in the renderer.

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const THEME_KEY = 'mori.theme';
const listeners = new Set<(dark: boolean) => void>();
let media: MediaQueryList | null = null;

/** The choice made in this page, which holds even where storage is refused. */
let chosen: ThemeChoice | null = null;

export function themeChoice(): ThemeChoice {
  if (chosen !== null) return chosen;
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

function systemDark(): boolean {
  media ??= window.matchMedia('(prefers-color-scheme: dark)');
  return media.matches;
}

/** Whether the window shows dark now: the choice, or the system's when none. */
export function isDark(): boolean {
  const c = themeChoice();
  return c === 'system' ? systemDark() : c === 'dark';
}

/** Sets the root's `data-theme` from the choice kept; run once when the page starts. */
export function applyTheme(): void {
  const c = themeChoice();
  if (c === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = c;
}

/** Chooses a theme: kept for the next page and applied to the page, its terminals and editors at once. */
export function setThemeChoice(choice: ThemeChoice): void {
  chosen = choice;
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // A browser that refuses storage: the theme holds for this page only.
  }
  applyTheme();
  tell();
}

function tell(): void {
  const dark = isDark();
  for (const l of [...listeners]) l(dark);
}

/** Calls `listener` when the window turns dark or light (a choice, or the system's change while it follows the system); returns the unsubscribe. */
export function onDarkChange(listener: (dark: boolean) => void): () => void {
  media ??= window.matchMedia('(prefers-color-scheme: dark)');
  const onSystem = (): void => {
    if (themeChoice() === 'system') listener(systemDark());
  };
  listeners.add(listener);
  media.addEventListener('change', onSystem);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', onSystem);
  };
}
