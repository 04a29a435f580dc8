// Entry of the Electron main process (electron-vite builds it to out/main/index.js): works out
// where things are — the Mori home, the built page and preload, the tray icons, and how to run the
// daemon (this very binary as Node on out/main/daemon.js) — and starts the app. Electron main process.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';
import { moriHome } from '../state/mori-home.js';
import { PLACEHOLDER_HTML } from '../web/static-files.js';
import { startApp } from './app-main.js';
import { builtPage } from './main-window.js';
import { electronSettings } from './settings.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// In a package, build/ resources sit beside the asar (extraResources); in a checkout, at its root.
const iconDir = app.isPackaged ? path.join(process.resourcesPath, 'tray') : path.join(here, '..', '..', 'build', 'tray');
const devUrl = process.env['ELECTRON_RENDERER_URL'];

/** The built window, or (a checkout where the renderer is not built yet) the web host's placeholder page. */
function windowPage(): { file: string } {
  const built = builtPage(here);
  if (existsSync(built.file)) return built;
  const dir = path.join(app.getPath('userData'), 'placeholder');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'index.html');
  writeFileSync(file, PLACEHOLDER_HTML);
  return { file };
}

await startApp({
  home: moriHome(),
  // Electron's own binary as Node (DESIGN.md §12): detached, so it outlives the app. Requires the
  // RunAsNode fuse (electron-builder.yml says why it stays on).
  launch: { execPath: process.execPath, entry: path.join(here, 'daemon.js') },
  daemonEnv: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  page: devUrl && !app.isPackaged ? { url: devUrl } : windowPage(),
  preload: path.join(here, '..', 'preload', 'index.cjs'),
  iconDir,
  settings: await electronSettings(),
  hidden: process.argv.includes('--hidden'),
});
