// What each tray action does (DESIGN.md §13): open the window, verify, start, stop, resume or not at
// a usage limit, show a state dir, mute, pause notifications, start at login, quit. An action on a
// remote's session goes to that host's daemon over its standing connection. Electron main process.
import { shell } from 'electron';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';
import type { RemoteHub } from '../remote/remote-hub.js';
import type { AppState } from './app-state.js';
import type { AutoStart } from './autostart.js';
import type { MainWindow } from './main-window.js';
import { pauseUntil } from '../../common/notification-decider.js';
import type { SettingsStore } from './settings.js';
import type { TrayAction } from './tray-model.js';

export interface AppActionsOptions {
  connection: DaemonConnection;
  remotes: RemoteHub;
  state: AppState;
  window: MainWindow;
  settings: SettingsStore;
  autoStart: AutoStart;
  toggleMute: (session: string) => Promise<void>;
  /** Renders the tray again (after a setting it shows changed). */
  render: () => void;
  quit: (stopAgents: boolean) => Promise<void>;
  log: (line: string) => void;
}

/** The function that runs a tray action. */
export function appActions(o: AppActionsOptions): (a: TrayAction) => Promise<void> {
  const { connection, state, window, settings, autoStart } = o;
  const report = (what: string, r: { ok: boolean; message?: string }): void => {
    if (!r.ok) o.log(`${what}: ${r.message ?? 'failed'}`);
  };
  return async (a) => {
    // An action on a remote's session goes to that host's daemon, over its standing connection.
    if ('remote' in a && a.remote !== undefined) {
      const method = a.kind === 'verify' ? 'checks.verify' : a.kind === 'resume-now' || a.kind === 'dont-resume' ? (`limit.${a.kind}` as const) : a.kind;
      return report(`${a.kind} on ${a.remote}`, await o.remotes.request(a.remote, method, { session: a.session }));
    }
    switch (a.kind) {
      case 'open-window':
        return window.open(a.session ?? null);
      case 'new-session':
        return window.open(null);
      case 'verify':
        return report('verify', await connection.request('checks.verify', { session: a.session }));
      case 'verify-all':
        for (const row of state.sessions()) report('verify', await connection.request('checks.verify', { session: row.info.id }));
        return;
      case 'start':
      case 'stop':
        report(a.kind, await connection.request(a.kind, { session: a.session }));
        return state.refresh();
      case 'resume-now':
      case 'dont-resume':
        report(a.kind, await connection.request(`limit.${a.kind}`, { session: a.session }));
        return state.refresh();
      case 'open-state-dir': {
        const row = state.rows.get(a.session);
        // Shown in its parent, never opened: a state dir macOS takes for an app bundle is not launched.
        if (row) shell.showItemInFolder(row.info.stateDir);
        return;
      }
      case 'toggle-mute':
        return o.toggleMute(a.session);
      case 'pause-notifications':
        settings.set('notificationsPausedUntil', a.for === 'resume' ? null : pauseUntil(a.for, Date.now()));
        return o.render();
      case 'toggle-start-at-login':
        autoStart.set(!autoStart.enabled());
        settings.set('startAtLogin', autoStart.enabled());
        return o.render();
      case 'quit':
        return o.quit(false);
      case 'quit-and-stop-agents':
        return o.quit(true);
    }
  };
}
