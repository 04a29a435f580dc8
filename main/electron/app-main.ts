// The desktop app, put together (DESIGN.md §12, §13): one instance (a second one focuses the
// first), a daemon connected to or started and kept alive, every remote of remotes.json followed
// through ssh, the OS's power and network news forwarded as hints (to the local daemon only), and the
// window hidden to the tray on close. Quit leaves the daemon and the agents running; "Quit and stop
// agents" stops them first. Each part is built in its own module, in order, and hears the others once
// all exist: the window and its IPC router (app-window.ts), the notifications and mutes
// (app-notifications.ts), the tray (app-tray.ts), what its actions do (app-actions.ts).
// Electron main process.
import { app, nativeTheme, net, Notification, powerMonitor, powerSaveBlocker } from 'electron';
import { stopDaemon, type DaemonLaunch } from '../daemon-client/daemon-process.js';
import { DaemonConnection } from '../daemon-client/daemon-connection.js';
import { RemoteHub, type RemoteHubOptions } from '../remote/remote-hub.js';
import { appActions } from './app-actions.js';
import { AppNotifications } from './app-notifications.js';
import { AppState } from './app-state.js';
import { TrayUsage } from './tray-usage.js';
import { TrayAwake } from './tray-awake.js';
import { AppAwakeBlocker } from './app-awake-blocker.js';
import { AppTray } from './app-tray.js';
import { appWindow } from './app-window.js';
import { type AutoStart, linuxAutoStart, loginItemAutoStart } from './autostart.js';
import { DaemonKeeper } from './daemon-keeper.js';
import type { MainWindow, WindowDeps } from './main-window.js';
import type { NotificationController } from './notification-controller.js';
import { forwardPowerHints } from './power-hints.js';
import type { SettingsStore } from './settings.js';
import { background } from '../background.js';
import { DockController } from './dock.js';
import type { TrayController } from './tray-controller.js';
import { trayHost, type TrayHost } from './tray-host.js';
import type { IpcRouter } from './ipc-router.js';
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
  const { window, router } = appWindow({ home: o.home, page: o.page, preload: o.preload, settings, connection, remotes, dock, quitting: () => quitting || !host.shown, log });
  const notes = new AppNotifications({ connection, state, window, settings, log, ...(o.coalesceMs !== undefined ? { coalesceMs: o.coalesceMs } : {}) });
  // Today's usage for the tooltip, read when the events say an agent may have made a request; the tray renders again when it changed.
  const usage = new TrayUsage((m, p) => connection.request(m, p), () => tray.render());
  // Whether the local daemon keeps the machine awake, from its own connection's events.
  // The app holds sleep too while the daemon does (the only hold on Windows): app-awake-blocker.ts.
  const blocker = new AppAwakeBlocker(powerSaveBlocker);
  const awake = new TrayAwake((m, p) => connection.request(m, p), () => {
    blocker.follow(awake.now());
    tray.render();
  });
  connection.onEvent((e) => awake.heard([e]));
  const tray = new AppTray({ iconDir: o.iconDir, state, settings, autoStart, muted: () => notes.muted(), onClick: () => window.open(null), quitting: () => quitting, usageToday: () => usage.today(), awake: () => awake.now() });
  // The local daemon's request only: a laptop's sleep interrupts its own agents, never a remote
  // host's, which keep running (and are not resumed) whatever this machine does.
  const request = connection.request.bind(connection) as typeof connection.request;
  const stopHints = forwardPowerHints(powerMonitor, request, () => net.isOnline(), log);

  let quitDone: Promise<void> | null = null;
  const quit = (stopAgents: boolean): Promise<void> => {
    if (quitDone) return quitDone;
    quitting = true;
    keeper.stop();
    quitDone = (async () => {
      if (stopAgents) {
        const r = await stopDaemon(o.home, true);
        if (!r.ok) log(`stopping the agents failed: ${r.message}`);
      }
      stopHints();
      blocker.stop();
      notes.dispose();
      remotes.stop();
      router.dispose();
      connection.close();
      tray.destroy();
      window.destroy();
      app.quit();
    })();
    return quitDone;
  };
  const act = appActions({ connection, remotes, state, window, settings, autoStart, toggleMute: (id) => notes.toggleMute(id), render: () => tray.render(), quit, log });
  const result: MoriApp = {
    state,
    tray: tray.controller,
    notifications: notes.controller,
    window,
    keeper,
    connection,
    remotes,
    router,
    act,
    get quitting() {
      return quitDone;
    },
  };

  // Every part built: each now hears the others.
  notes.onChange(() => tray.render());
  tray.onAction((a) => void act(a).then(undefined, (err: unknown) => log(`tray action ${a.kind} failed: ${String(err)}`)));
  state.onChange((events, quiet) => {
    tray.render();
    usage.heard(events);
    dock.sessions(state.sessions());
    // From the first full picture on: the first one only teaches the notifications what is already so.
    // Remote news is decided on while the local daemon is away too (the local rows then do not change).
    if (state.listed) notes.controller.changed(events, quiet);
  });

  app.on('second-instance', () => window.open(null));
  // The tray keeps the app: closing the last window does not quit it, unless there is no tray.
  app.on('window-all-closed', () => {
    if (!host.shown) background(quit(false), 'quitting');
  });
  app.on('before-quit', () => {
    quitting = true;
  });

  tray.render();
  // In the background: a remote that hangs shows as connecting, never holding up the local daemon.
  remotes.start();
  await keeper.start();
  background(usage.refresh(), 'reading the usage the tray shows');
  background(awake.refresh(), 'asking whether the daemon keeps the machine awake');
  if (!o.hidden || !host.shown) window.open(null);
  if (!host.shown) new Notification({ title: 'Mori has no tray icon here', body: `${host.why}. Closing the window quits Mori; the agents keep running.` }).show();
  return result;
}
