// The app's window, wired (DESIGN.md §13): the MainWindow over Electron's BrowserWindow (its bounds
// kept in the settings, the Dock shown while it is), the links it opens in the default browser, and
// the IPC router its page talks through, to the local daemon and to the remotes. Electron main process.
import { BrowserWindow, ipcMain, session, shell } from 'electron';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';
import type { RemoteHub } from '../remote/remote-hub.js';
import { WindowRemotes } from '../remote/window-remotes.js';
import type { DockController } from './dock.js';
import { ExternalLinks } from './external-links.js';
import { IpcRouter, type IpcMainLike } from './ipc-router.js';
import { isAppUrl, MainWindow, type WindowDeps } from './main-window.js';
import type { SettingsStore } from './settings.js';

export interface AppWindowOptions {
  home: string;
  page: WindowDeps['page'];
  preload: string;
  settings: SettingsStore;
  connection: DaemonConnection;
  remotes: RemoteHub;
  dock: DockController;
  /** True when closing the window quits (the app is quitting, or there is no tray to hide to). */
  quitting: () => boolean;
  log: (line: string) => void;
}

/** The window and the router of its page's requests. */
export function appWindow(o: AppWindowOptions): { window: MainWindow; router: IpcRouter } {
  const links = new ExternalLinks({ openExternal: (url) => shell.openExternal(url), log: o.log });
  const window = new MainWindow({
    create: (opts) => new BrowserWindow(opts),
    openLink: (url, from) => void links.open(url, from),
    session: session.defaultSession,
    preload: o.preload,
    page: o.page,
    bounds: () => o.settings.get('windowBounds'),
    saveBounds: (b) => o.settings.set('windowBounds', b),
    quitting: o.quitting,
    onVisibility: (visible) => o.dock.window(visible),
  });
  const router = new IpcRouter({
    ipcMain: ipcMain as unknown as IpcMainLike,
    connection: o.connection,
    home: o.home,
    isAppUrl: (url) => isAppUrl(o.page, url),
    log: o.log,
    openLink: (url, from) => links.open(url, from),
    showInFolder: (dir) => shell.showItemInFolder(dir),
    remotes: new WindowRemotes(o.remotes, o.home),
  });
  return { window, router };
}
