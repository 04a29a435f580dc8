// The desktop app, put together (DESIGN.md §12, §13): one instance (a second one focuses the
// first), a daemon connected to or started and kept alive, every remote of remotes.json followed
// through ssh, the tray and the notifications rebuilt from the app state on each change, the OS's
// power and network news forwarded as hints (to the local daemon only), the IPC
// router, and the window hidden to the tray on close. Quit leaves the daemon and the agents running;
// "Quit and stop agents" stops them first. Electron main process.
import { app, BrowserWindow, ipcMain, Menu, nativeImage, nativeTheme, net, Notification, powerMonitor, session, shell, Tray } from 'electron';
import type { DaemonSettings } from '../../common/daemon-settings.js';
import { stopDaemon, type DaemonLaunch } from '../daemon-client/daemon-process.js';
import { DaemonConnection } from '../daemon-client/daemon-connection.js';
import { RemoteHub, type RemoteHubOptions } from '../remote/remote-hub.js';
import { WindowRemotes } from '../remote/window-remotes.js';
import { AppState } from './app-state.js';
import { type AutoStart, linuxAutoStart, loginItemAutoStart } from './autostart.js';
import { DaemonKeeper } from './daemon-keeper.js';
import { ExternalLinks } from './external-links.js';
import { IpcRouter, type IpcMainLike } from './ipc-router.js';
import { isAppUrl, MainWindow, type WindowDeps } from './main-window.js';
import { NotificationController } from './notification-controller.js';
import { pauseUntil } from './notification-decider.js';
import { forwardPowerHints } from './power-hints.js';
import type { SettingsStore } from './settings.js';
import { background } from '../background.js';
import { systemClock, systemScheduler, type Cancel } from '../power/clock.js';
import { atWallTime } from '../power/long-timer.js';
import { DockController } from './dock.js';
import { TrayController } from './tray-controller.js';
import { trayHost, type TrayHost } from './tray-host.js';
import type { TrayAction } from './tray-model.js';

export interface AppOptions {
  home: string;
  launch: DaemonLaunch;
  /** The daemon's environment (with ELECTRON_RUN_AS_NODE=1 when the binary is Electron's). */
  daemonEnv: NodeJS.ProcessEnv;
  page: WindowDeps['page'];
  preload: string;
  iconDir: string;
  settings: SettingsStore;
  autoStart?: AutoStart;
  /** Started with --hidden (at login): no window until asked. */
  hidden?: boolean;
  /** The platform the app behaves as (the Dock is macOS's); default process.platform. */
  platform?: NodeJS.Platform;
  /** Whether this desktop shows tray icons (tray-host.ts); tests inject an answer. */
  trayHost?: () => Promise<TrayHost>;
  coalesceMs?: number;
  /** The remotes' connection timings (tests shorten them). */
  remotes?: Omit<RemoteHubOptions, 'home' | 'log'>;
  log?: (line: string) => void;
}

export interface MoriApp {
  state: AppState;
  tray: TrayController;
  notifications: NotificationController;
  window: MainWindow;
  keeper: DaemonKeeper;
  connection: DaemonConnection;
  remotes: RemoteHub;
  router: IpcRouter;
  act(a: TrayAction): Promise<void>;
  /** Resolves when the app has finished quitting (daemon stopped first when asked). */
  quitting: Promise<void> | null;
}

export async function startApp(o: AppOptions): Promise<MoriApp | null> {
  const log = o.log ?? ((line: string) => console.error(`mori: ${line}`));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();
  const settings = o.settings;
  // The window follows the system unless the person chose a theme: Chromium's prefers-color-scheme,
  // which the renderer's styles follow, comes from nativeTheme.themeSource.
  nativeTheme.themeSource = settings.get('theme');
  // Without a tray the window is the app: it opens even at login, and closing it quits the app (the
  // daemon and the agents keep running, as with Quit).
  const host = await (o.trayHost ?? (() => trayHost(process.platform)))();
  if (!host.shown) log(`${host.why}: the window stays open instead`);
  const autoStart = o.autoStart ?? (process.platform === 'linux' ? linuxAutoStart(process.env, process.execPath) : loginItemAutoStart(app));
  let quitting = false;

  const connection = new DaemonConnection(o.home, { client: `Mori app (pid ${process.pid})` });
  const remotes = new RemoteHub({ ...o.remotes, home: o.home, log });
  const state = new AppState(connection, remotes);
  const keeper = new DaemonKeeper({ home: o.home, launch: o.launch, env: o.daemonEnv, connection, onStatus: (s) => state.setDaemon(s), log });
  const dock = new DockController((o.platform ?? process.platform) === 'darwin' ? app.dock : undefined);
  const links = new ExternalLinks({ openExternal: (url) => shell.openExternal(url), log });
  const window = new MainWindow({
    create: (opts) => new BrowserWindow(opts),
    openLink: (url, from) => void links.open(url, from),
    session: session.defaultSession,
    preload: o.preload,
    page: o.page,
    bounds: () => settings.get('windowBounds'),
    saveBounds: (b) => settings.set('windowBounds', b),
    quitting: () => quitting || !host.shown,
    onVisibility: (visible) => dock.window(visible),
  });
  const router = new IpcRouter({
    ipcMain: ipcMain as unknown as IpcMainLike,
    connection,
    home: o.home,
    isAppUrl: (url) => isAppUrl(o.page, url),
    log,
    openLink: (url, from) => links.open(url, from),
    showInFolder: (dir) => shell.showItemInFolder(dir),
    remotes: new WindowRemotes(remotes, o.home),
  });

  // The daemon's notification settings, which `mori ui` shares: read on each connection, then followed.
  let daemonNotifications: DaemonSettings['notifications'] | null = null;
  // Muted sessions: the daemon's list (shared with `mori ui`'s page), and any the app kept itself
  // (from before the daemon kept them, or muted while it was not reachable).
  const muted = (): Set<string> => new Set([...settings.get('mutedSessions'), ...(daemonNotifications?.muted ?? [])]);
  const daemonNotificationsAre = (n: DaemonSettings['notifications']): void => {
    daemonNotifications = n;
    syncMuted();
    render();
  };
  connection.onState((s) => {
    if (s !== 'open') return;
    connection.request('settings.get', {}).then(
      (r) => {
        if (r.ok) daemonNotificationsAre(r.value.notifications);
      },
      (err: unknown) => log(`reading the daemon's settings failed: ${String(err)}`),
    );
  });
  connection.onEvent((e) => {
    if (e.type === 'settings.changed') daemonNotificationsAre(e.settings.notifications);
  });
  /** Mutes or unmutes a session in the daemon's settings; false when the daemon could not take it. */
  async function setDaemonMute(session: string, mute: boolean): Promise<boolean> {
    const current = await connection.request('settings.get', {});
    if (!current.ok) return false;
    const list = current.value.notifications.muted.filter((id) => id !== session);
    const next = { ...current.value, notifications: { ...current.value.notifications, muted: mute ? [...list, session] : list } };
    const r = await connection.request('settings.set', { settings: next });
    if (!r.ok) log(`muting ${session} in the daemon's settings failed: ${r.message}`);
    else daemonNotificationsAre(r.value.notifications);
    return r.ok;
  }
  const notifications = new NotificationController({
    create: (opts) => new Notification(opts),
    rows: () => [...state.sessions(), ...state.remoteSessions()],
    focusedSession: () => window.focusedSession(),
    pausedUntil: () => settings.get('notificationsPausedUntil'),
    daemonNotifications: () => daemonNotifications,
    // The window shows every host's sessions (a remote one as `host:<id>`); one gone since opens it on the list.
    openSession: (id) => window.open(id !== null && (state.rows.has(id) || state.remoteSessions().some((r) => r.info.id === id)) ? id : null),
    ...(o.coalesceMs !== undefined ? { coalesceMs: o.coalesceMs } : {}),
  });
  function syncMuted(): void {
    notifications.muted.clear();
    for (const id of muted()) notifications.muted.add(id);
  }
  syncMuted();

  const tray = new TrayController(
    {
      tray: (image) => {
        const t = new Tray(image);
        // Windows and most Linux trays: a click on the icon opens the window (the menu is on right-click).
        t.on('click', () => window.open(null));
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
    (a) => void act(a).then(undefined, (err: unknown) => log(`tray action ${a.kind} failed: ${String(err)}`)),
  );
  // The menu says "paused until …": one render when the pause ends takes that back. A single timer
  // for a known moment, not a periodic rebuild (which reshuffles the macOS menu bar).
  let pauseEnd: Cancel | null = null;
  const render = (): void => {
    const pausedUntil = settings.get('notificationsPausedUntil');
    tray.render({
      daemon: state.daemon,
      sessions: state.sessions(),
      remotes: [...state.remotes.values()],
      notificationsPausedUntil: pausedUntil,
      startAtLogin: autoStart.enabled(),
      muted: muted(),
      now: Date.now(),
    });
    pauseEnd?.();
    // At the pause's end on the wall clock, however far (a settings file may name any time).
    pauseEnd = pausedUntil !== null && pausedUntil > Date.now() && !quitting ? atWallTime(systemClock, systemScheduler, pausedUntil + 1, render) : null;
  };
  state.onChange((events, quiet) => {
    render();
    dock.sessions(state.sessions());
    // From the first full picture on: the first one only teaches the notifications what is already so.
    // Remote news is decided on while the local daemon is away too (the local rows then do not change).
    if (state.listed) notifications.changed(events, quiet);
  });

  // The local daemon's request only: a laptop's sleep interrupts its own agents, never a remote
  // host's, which keep running (and are not resumed) whatever this machine does.
  const request = connection.request.bind(connection) as typeof connection.request;
  const stopHints = forwardPowerHints(powerMonitor, request, () => net.isOnline(), log);

  let quitDone: Promise<void> | null = null;
  const result: MoriApp = { state, tray, notifications, window, keeper, connection, remotes, router, act, quitting: null };

  async function quit(stopAgents: boolean): Promise<void> {
    if (quitDone) return quitDone;
    quitting = true;
    keeper.stop();
    quitDone = (async () => {
      if (stopAgents) {
        const r = await stopDaemon(o.home, true);
        if (!r.ok) log(`stopping the agents failed: ${r.message}`);
      }
      stopHints();
      pauseEnd?.();
      notifications.dispose();
      remotes.stop();
      router.dispose();
      connection.close();
      tray.destroy();
      window.destroy();
      app.quit();
    })();
    result.quitting = quitDone;
    return quitDone;
  }

  async function act(a: TrayAction): Promise<void> {
    const report = (what: string, r: { ok: boolean; message?: string }): void => {
      if (!r.ok) log(`${what}: ${r.message ?? 'failed'}`);
    };
    // An action on a remote's session goes to that host's daemon, over its standing connection.
    if ('remote' in a && a.remote !== undefined) {
      const method = a.kind === 'verify' ? 'checks.verify' : a.kind === 'resume-now' || a.kind === 'dont-resume' ? (`limit.${a.kind}` as const) : a.kind;
      return report(`${a.kind} on ${a.remote}`, await remotes.request(a.remote, method, { session: a.session }));
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
      case 'toggle-mute': {
        const mute = !muted().has(a.session);
        const kept = settings.get('mutedSessions').filter((id) => id !== a.session);
        // Kept by the daemon, so `mori ui`'s page mutes it too; by the app only while the daemon cannot be reached.
        const told = await setDaemonMute(a.session, mute);
        settings.set('mutedSessions', mute && !told ? [...kept, a.session] : kept);
        syncMuted();
        return render();
      }
      case 'pause-notifications':
        settings.set('notificationsPausedUntil', a.for === 'resume' ? null : pauseUntil(a.for, Date.now()));
        return render();
      case 'toggle-start-at-login':
        autoStart.set(!autoStart.enabled());
        settings.set('startAtLogin', autoStart.enabled());
        return render();
      case 'quit':
        return quit(false);
      case 'quit-and-stop-agents':
        return quit(true);
    }
  }

  app.on('second-instance', () => window.open(null));
  // The tray keeps the app: closing the last window does not quit it, unless there is no tray.
  app.on('window-all-closed', () => {
    if (!host.shown) background(quit(false), 'quitting');
  });
  app.on('before-quit', () => {
    quitting = true;
  });

  render();
  // In the background: a remote that hangs shows as connecting, never holding up the local daemon.
  remotes.start();
  await keeper.start();
  if (!o.hidden || !host.shown) window.open(null);
  if (!host.shown) new Notification({ title: 'Mori has no tray icon here', body: `${host.why}. Closing the window quits Mori; the agents keep running.` }).show();
  return result;
}
