// Start at login, one interface over the platforms: Electron's login items on macOS and Windows, an
// XDG autostart `.desktop` file on Linux pointing at the AppImage when the app runs as one (the
// binary inside it lives in a temporary mount that changes every run). Electron main process.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App } from 'electron';

export interface AutoStart {
  enabled(): boolean;
  set(enabled: boolean): void;
}

export function xdgAutostartFile(env: NodeJS.ProcessEnv): string {
  const config = env['XDG_CONFIG_HOME'] || path.join(env['HOME'] ?? os.homedir(), '.config');
  return path.join(config, 'autostart', 'mori.desktop');
}

/** The .desktop entry that starts Mori hidden in the tray. */
export function desktopEntry(exec: string): string {
  const quoted = `"${exec.replace(/(["`$\\])/g, '\\$1')}"`;
  return ['[Desktop Entry]', 'Type=Application', 'Name=Mori', 'Comment=Keeps coding agents working', `Exec=${quoted} --hidden`, 'X-GNOME-Autostart-enabled=true', ''].join('\n');
}

export function linuxAutoStart(env: NodeJS.ProcessEnv, execPath: string): AutoStart {
  const file = xdgAutostartFile(env);
  return {
    enabled: () => existsSync(file),
    set: (on) => {
      if (!on) return rmSync(file, { force: true });
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, desktopEntry(env['APPIMAGE'] || execPath), { mode: 0o644 });
    },
  };
}

export function loginItemAutoStart(app: Pick<App, 'getLoginItemSettings' | 'setLoginItemSettings'>): AutoStart {
  return {
    enabled: () => app.getLoginItemSettings().openAtLogin,
    set: (on) => app.setLoginItemSettings({ openAtLogin: on, openAsHidden: true, args: ['--hidden'] }),
  };
}
