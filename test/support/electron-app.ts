// Starting the desktop app's main process in Node for a test (DESIGN.md §14): `electron` is the fake
// of test/support/fakes/electron.ts (the test file mocks it), the daemon is real — started by the app as it
// would be, with this Node standing in for Electron's binary run as Node — and the app's own
// settings live in memory. The fake's records (tray, notifications, windows) tell what happened.
import { startApp, type MoriApp } from '../../main/electron/app-main.js';
import { memorySettings, type SettingsStore } from '../../main/electron/settings.js';
import type { AutoStart } from '../../main/electron/autostart.js';
import type { AppOptions } from '../../main/electron/app-main.js';
import type { TrayHost } from '../../main/electron/tray-host.js';
import { MORI_BIN, REPO } from '../../testkit/mori-cli.js';
import type { UpHarness } from './mori-up.js';
import path from 'node:path';
import { stopDaemon } from '../../main/daemon-client/daemon-process.js';
import { fake, type Tray } from './fakes/electron.js';

export const APP_PAGE = path.join(REPO, 'out', 'renderer', 'index.html');

export interface TestApp {
  app: MoriApp;
  logs: string[];
}

export async function startTestApp(h: UpHarness, over: { coalesceMs?: number; hidden?: boolean; settings?: SettingsStore; trayHost?: () => Promise<TrayHost>; remotes?: AppOptions['remotes'] } = {}): Promise<TestApp> {
  const logs: string[] = [];
  let login = false;
  const autoStart: AutoStart = { enabled: () => login, set: (on) => void (login = on) };
  const app = await startApp({
    home: h.home,
    launch: { execPath: process.execPath, entry: MORI_BIN },
    daemonEnv: { ...process.env, ...h.env, MORI_HOME: h.home, ELECTRON_RUN_AS_NODE: '1' },
    page: { file: APP_PAGE },
    preload: path.join(REPO, 'out', 'preload', 'index.cjs'),
    iconDir: path.join(REPO, 'build', 'tray'),
    settings: over.settings ?? memorySettings(),
    autoStart,
    hidden: over.hidden ?? true,
    // A tray is shown unless a test says otherwise (this machine's answer must not decide the tests).
    trayHost: over.trayHost ?? (() => Promise.resolve({ shown: true })),
    // Short in tests: the decision itself is what is tested, not the wait.
    coalesceMs: over.coalesceMs ?? 500,
    ...(over.remotes ? { remotes: over.remotes } : {}),
    log: (line) => logs.push(line),
  });
  if (!app) throw new Error('the app did not start (single-instance lock refused)');
  return { app, logs };
}

/** The fake's records emptied before a test: no tray, notification or window from the one before. */
export function resetElectronFakes(): void {
  fake.notifications.length = 0;
  fake.trays.length = 0;
  fake.windows.length = 0;
  fake.sleepBlocks.clear();
  fake.singleInstance = true;
}

/** The tray the app made last. */
export function lastTray(): Tray {
  const last = fake.trays.at(-1);
  if (!last) throw new Error('no tray');
  return last;
}

/**
 * Quits the app (when it started) and stops its daemon from this process: the daemon is this
 * process's child here (the app's, in life), and a `mori down` run synchronously would wait on a
 * zombie this process cannot reap meanwhile. Then the harness's files go.
 */
export async function endTestApp(t: TestApp | null, h: UpHarness): Promise<void> {
  if (t) await t.app.act({ kind: 'quit' });
  await stopDaemon(h.home, false);
  h.cleanup();
}
