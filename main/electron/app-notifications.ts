// The app's notifications, wired (DESIGN.md §13): the NotificationController over the app's rows,
// the daemon's notification settings (shared with `mori ui`'s page) read on each connection and
// followed through `settings.changed`, and the muted sessions: the daemon's list and any the app
// kept itself (from before the daemon kept them, or muted while it could not be reached). Tells its
// listeners when what the tray shows of them changed. Electron main process.
import { Notification } from 'electron';
import type { DaemonSettings } from '../../common/daemon-settings.js';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';
import type { AppState } from './app-state.js';
import type { MainWindow } from './main-window.js';
import { NotificationController } from './notification-controller.js';
import type { SettingsStore } from './settings.js';

export interface AppNotificationsOptions {
  connection: DaemonConnection;
  state: AppState;
  window: MainWindow;
  settings: SettingsStore;
  coalesceMs?: number;
  log: (line: string) => void;
}

export class AppNotifications {
  readonly controller: NotificationController;
  /** The daemon's notification settings, once read on a connection. */
  private daemonNotifications: DaemonSettings['notifications'] | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly o: AppNotificationsOptions) {
    const { state, window, settings } = o;
    this.controller = new NotificationController({
      create: (opts) => new Notification(opts),
      rows: () => [...state.sessions(), ...state.remoteSessions()],
      focusedSession: () => window.focusedSession(),
      pausedUntil: () => settings.get('notificationsPausedUntil'),
      daemonNotifications: () => this.daemonNotifications,
      // The window shows every host's sessions (a remote one as `host:<id>`); one gone since opens it on the list.
      openSession: (id) => window.open(id !== null && (state.rows.has(id) || state.remoteSessions().some((r) => r.info.id === id)) ? id : null),
      ...(o.coalesceMs !== undefined ? { coalesceMs: o.coalesceMs } : {}),
    });
    this.syncMuted();
    o.connection.onState((s) => {
      if (s !== 'open') return;
      o.connection.request('settings.get', {}).then(
        (r) => {
          if (r.ok) this.daemonNotificationsAre(r.value.notifications);
        },
        (err: unknown) => o.log(`reading the daemon's settings failed: ${String(err)}`),
      );
    });
    o.connection.onEvent((e) => {
      if (e.type === 'settings.changed') this.daemonNotificationsAre(e.settings.notifications);
    });
  }

  /** Called when the muted sessions or the daemon's settings change. */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** The muted sessions: the daemon's and the app's own. */
  muted(): Set<string> {
    return new Set([...this.o.settings.get('mutedSessions'), ...(this.daemonNotifications?.muted ?? [])]);
  }

  /** Mutes or unmutes a session: kept by the daemon, so `mori ui`'s page mutes it too; by the app only while the daemon cannot be reached. */
  async toggleMute(session: string): Promise<void> {
    const { settings } = this.o;
    const mute = !this.muted().has(session);
    const kept = settings.get('mutedSessions').filter((id) => id !== session);
    const told = await this.setDaemonMute(session, mute);
    settings.set('mutedSessions', mute && !told ? [...kept, session] : kept);
    this.syncMuted();
    this.changed();
  }

  dispose(): void {
    this.controller.dispose();
  }

  private daemonNotificationsAre(n: DaemonSettings['notifications']): void {
    this.daemonNotifications = n;
    this.syncMuted();
    this.changed();
  }

  /** Mutes or unmutes a session in the daemon's settings; false when the daemon could not take it. */
  private async setDaemonMute(session: string, mute: boolean): Promise<boolean> {
    const { connection } = this.o;
    const current = await connection.request('settings.get', {});
    if (!current.ok) return false;
    const list = current.value.notifications.muted.filter((id) => id !== session);
    const next = { ...current.value, notifications: { ...current.value.notifications, muted: mute ? [...list, session] : list } };
    const r = await connection.request('settings.set', { settings: next });
    if (!r.ok) this.o.log(`muting ${session} in the daemon's settings failed: ${r.message}`);
    else this.daemonNotificationsAre(r.value.notifications);
    return r.ok;
  }

  private syncMuted(): void {
    this.controller.muted.clear();
    for (const id of this.muted()) this.controller.muted.add(id);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
