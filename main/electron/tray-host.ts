// Whether this desktop shows tray icons. Linux trays are StatusNotifierItem hosts: with no
// `org.kde.StatusNotifierWatcher` on the session bus (GNOME without the AppIndicator extension, a bare
// window manager) an Electron Tray is created but never shown, and an app that lives in the tray
// would be unreachable. Then the window is the app: it opens, stays, and says why. macOS and Windows
// always have one. Electron main process.
import { execFile } from 'node:child_process';

export type TrayHost = { shown: true } | { shown: false; why: string };

/** Runs a program and gives its stdout, or null when it cannot run or fails. */
export type Run = (file: string, args: string[]) => Promise<string | null>;

/** A bus answer takes milliseconds; a stuck bus must not hold the app's start longer than this. */
const BUS_TIMEOUT_MS = 2_000;

const run: Run = (file, args) =>
  new Promise((resolve) => {
    execFile(file, args, { timeout: BUS_TIMEOUT_MS }, (err, stdout) => resolve(err ? null : stdout));
  });

/**
 * Asks the session bus whether a StatusNotifierWatcher is there. Only a clear "no" counts as no tray:
 * a bus that cannot be asked (no dbus-send, no session bus address) leaves the tray as it is.
 */
export async function linuxTrayHost(exec: Run = run): Promise<TrayHost> {
  const out = await exec('dbus-send', [
    '--session',
    '--print-reply=literal',
    '--dest=org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner',
    'string:org.kde.StatusNotifierWatcher',
  ]);
  if (out === null || !/\bboolean\s+false\b/.test(out)) return { shown: true };
  return { shown: false, why: 'this desktop shows no tray icons (no StatusNotifierWatcher on the session bus; on GNOME, the AppIndicator extension adds one)' };
}

/** The tray host of this platform. */
export function trayHost(platform: NodeJS.Platform, exec?: Run): Promise<TrayHost> {
  return platform === 'linux' ? linuxTrayHost(exec) : Promise.resolve({ shown: true });
}
