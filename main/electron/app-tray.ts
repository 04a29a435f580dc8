// The app's tray, wired (DESIGN.md §13): the TrayController over Electron's Tray, Menu and images,
// rendered from the app's state, the notification pause and mutes and the login item, and rendered
// once more when a pause ends. Tells its listeners the actions the person picks. Electron main process.
import { Menu, nativeImage, Tray } from 'electron';
import { systemClock, systemScheduler, type Cancel } from '../power/clock.js';
import { atWallTime } from '../power/long-timer.js';
import type { AppState } from './app-state.js';
import type { AutoStart } from './autostart.js';
import type { SettingsStore } from './settings.js';
import { TrayController } from './tray-controller.js';
import type { TrayAction } from './tray-model.js';
import type { TodayUsage } from './tray-usage.js';
import type { AwakeNow } from './tray-awake.js';

export interface AppTrayOptions {
  iconDir: string;
  state: AppState;
  settings: SettingsStore;
  autoStart: AutoStart;
  muted: () => Set<string>;
  /** A click on the icon (Windows and most Linux trays; the menu is on right-click). */
  onClick: () => void;
  /** True once the app is quitting: no timer is set then. */
  quitting: () => boolean;
  /** Today's usage across the sessions, for the tooltip (tray-usage.ts). */
  usageToday?: () => TodayUsage | null;
  /** Whether the daemon keeps the machine awake, for the tooltip (tray-awake.ts). */
  awake?: () => AwakeNow | null;
}

export class AppTray {
  readonly controller: TrayController;
  private readonly listeners = new Set<(a: TrayAction) => void>();
  /** The one timer for the moment the notification pause ends. */
  private pauseEnd: Cancel | null = null;

  constructor(private readonly o: AppTrayOptions) {
    this.controller = new TrayController(
      {
        tray: (image) => {
          const t = new Tray(image);
          t.on('click', () => o.onClick());
          return t;
        },
        image: (file, template) => {
          const img = nativeImage.createFromPath(file);
          if (template) img.setTemplateImage(true);
          return img;
        },
        menu: (template) => Menu.buildFromTemplate(template),
      },
      o.iconDir,
      (a) => {
        for (const l of this.listeners) l(a);
      },
    );
  }

  /** Called with each action the person picks in the menu. */
  onAction(listener: (a: TrayAction) => void): void {
    this.listeners.add(listener);
  }

  /** Renders the tray from the app's state now. */
  render(): void {
    const { settings, state } = this.o;
    const pausedUntil = settings.get('notificationsPausedUntil');
    this.controller.render({
      daemon: state.daemon,
      sessions: state.sessions(),
      remotes: [...state.remotes.values()],
      notificationsPausedUntil: pausedUntil,
      startAtLogin: this.o.autoStart.enabled(),
      muted: this.o.muted(),
      now: Date.now(),
      usageToday: this.o.usageToday?.() ?? null,
      awake: this.o.awake?.() ?? null,
    });
    this.pauseEnd?.();
    // The menu says "paused until …": one render when the pause ends takes that back. A single timer
    // for a known moment on the wall clock, however far (a settings file may name any time), not a
    // periodic rebuild (which reshuffles the macOS menu bar).
    this.pauseEnd = pausedUntil !== null && pausedUntil > Date.now() && !this.o.quitting() ? atWallTime(systemClock, systemScheduler, pausedUntil + 1, () => this.render()) : null;
  }

  /** Cancels the pause's timer and takes the icon away. */
  destroy(): void {
    this.pauseEnd?.();
    this.controller.destroy();
  }
}
