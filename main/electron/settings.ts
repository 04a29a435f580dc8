// The app's own settings (DESIGN.md §12): window bounds, theme, start at login, the notification
// pause and per-session mutes, kept with electron-store in the app's user-data folder. Settings both
// UIs share live with the daemon instead. `memorySettings` is the same interface without a file.
// Electron main process.
import type { Rectangle } from 'electron';

export interface AppSettings {
  windowBounds: Rectangle | null;
  theme: 'system' | 'light' | 'dark';
  startAtLogin: boolean;
  /** Epoch ms until which notifications are paused, or null. */
  notificationsPausedUntil: number | null;
  mutedSessions: string[];
}

export const DEFAULT_SETTINGS: AppSettings = { windowBounds: null, theme: 'system', startAtLogin: false, notificationsPausedUntil: null, mutedSessions: [] };

export interface SettingsStore {
  get<K extends keyof AppSettings>(key: K): AppSettings[K];
  set<K extends keyof AppSettings>(key: K, value: AppSettings[K]): void;
}

/** electron-store, loaded when first used (it needs Electron's app paths). */
export async function electronSettings(): Promise<SettingsStore> {
  const { default: Store } = await import('electron-store');
  const store = new Store<AppSettings>({ name: 'mori-app', defaults: DEFAULT_SETTINGS });
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
  };
}

export function memorySettings(initial: Partial<AppSettings> = {}): SettingsStore {
  const values: AppSettings = { ...DEFAULT_SETTINGS, ...initial };
  return {
    get: (key) => values[key],
    set: (key, value) => {
      values[key] = value;
    },
  };
}
