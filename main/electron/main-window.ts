// The window (DESIGN.md §11, §13): created locked down — context isolation, the sandbox, no Node in
// the page, a strict CSP on every response, navigation and new windows denied (a link they were for
// goes to the default browser, http and https only), every permission denied (notifications too: the
// app notifies natively, the page does not) — loads the built renderer, hides to the tray when closed (the app keeps
// running), and remembers its bounds. Opening it on a session sets the page's hash
// (`#session=<id>`), which shows that session's terminal. Electron main process; Electron's classes come in through `WindowDeps`.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindow, BrowserWindowConstructorOptions, Rectangle, Session } from 'electron';
import { sessionHash } from '../../common/electron-ipc.js';

/** Only the app's own scripts and styles; no remote code; the daemon is reached through IPC, not the network. */
export const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** No permission for the page: the app raises the notifications itself (notification-controller.ts). */
const ALLOWED_PERMISSIONS = new Set<string>();

/** A first window that fits a 13" laptop beside an editor. */
const DEFAULT_BOUNDS = { width: 1100, height: 720 };

export interface WindowDeps {
  create: (options: BrowserWindowConstructorOptions) => BrowserWindow;
  session: Session;
  preload: string;
  /** The built page (out/renderer/index.html) or a dev server's URL (ELECTRON_RENDERER_URL). */
  page: { file: string } | { url: string };
  bounds: () => Rectangle | null;
  saveBounds: (b: Rectangle) => void;
  /** True once the app is quitting: then a close really closes. */
  quitting: () => boolean;
  /** A link a new window or a navigation was for: to the default browser when it may be (external-links.ts). */
  openLink?: (url: string, from: string) => void;
  /** Told when the window is shown or hidden (the macOS Dock follows it). */
  onVisibility?: (visible: boolean) => void;
}

/** The web preferences every Mori window gets; exported so a test can read them off the built main. */
export function securePreferences(preload: string): BrowserWindowConstructorOptions['webPreferences'] {
  return { preload, contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, webviewTag: false, spellcheck: false };
}

export function pageUrl(page: WindowDeps['page']): string {
  return 'file' in page ? pathToFileURL(page.file).href : page.url;
}

/** Whether a URL is the app's page (any hash or query). */
export function isAppUrl(page: WindowDeps['page'], url: string): boolean {
  const strip = (u: string): string => u.split('#')[0]?.split('?')[0] ?? '';
  return url !== '' && strip(url) === strip(pageUrl(page));
}

/** Locks the session down once: CSP on every response, every permission denied. */
export function lockDownSession(s: Session): void {
  s.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  s.setPermissionRequestHandler((_wc, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  s.setPermissionCheckHandler((_wc, permission) => ALLOWED_PERMISSIONS.has(permission));
}

export class MainWindow {
  private win: BrowserWindow | null = null;
  /** The session shown, as far as the app opened it (the page may move on; see focusedSession). */
  shownSession: string | null = null;

  constructor(private readonly d: WindowDeps) {
    lockDownSession(d.session);
  }

  get window(): BrowserWindow | null {
    return this.win;
  }

  /** Shows (creating if needed) and focuses the window, on a session when one is named. */
  open(sessionId?: string | null): void {
    const win = this.win ?? this.create();
    if (sessionId) {
      this.shownSession = sessionId;
      const hash = JSON.stringify(`#${sessionHash(sessionId)}`);
      // The hash cleared first (without an event), so that setting it fires `hashchange` even when the
      // page shows that session already: the page then shows its terminal.
      win.webContents.executeJavaScript(`history.replaceState(null, '', '#'); location.hash = ${hash}`).then(undefined, () => undefined);
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    this.d.onVisibility?.(true);
  }

  /** The session the person is looking at, when the window has focus. */
  focusedSession(): string | null {
    const win = this.win;
    if (!win || !win.isVisible() || !win.isFocused()) return null;
    const m = /#session=([^&]+)/.exec(win.webContents.getURL());
    return m?.[1] ? decodeURIComponent(m[1]) : this.shownSession;
  }

  destroy(): void {
    this.win?.destroy();
    this.win = null;
  }

  private create(): BrowserWindow {
    const saved = this.d.bounds();
    const win = this.d.create({
      ...(saved ?? DEFAULT_BOUNDS),
      show: false,
      title: 'Mori',
      webPreferences: securePreferences(this.d.preload),
    });
    this.win = win;
    const page = this.d.page;
    win.webContents.setWindowOpenHandler(({ url }) => {
      this.d.openLink?.(url, 'a new window');
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (e, url) => {
      e.preventDefault();
      if (!isAppUrl(page, url)) this.d.openLink?.(url, 'a navigation');
    });
    win.webContents.on('will-redirect', (e) => e.preventDefault());
    win.webContents.on('will-attach-webview', (e) => e.preventDefault());
    win.on('close', (e) => {
      this.d.saveBounds(win.getBounds());
      if (this.d.quitting()) return;
      e.preventDefault();
      win.hide();
      this.d.onVisibility?.(false);
    });
    win.on('closed', () => {
      if (this.win === win) this.win = null;
      this.d.onVisibility?.(false);
    });
    const loaded = 'file' in page ? win.loadFile(page.file) : win.loadURL(page.url);
    loaded.then(undefined, () => undefined);
    return win;
  }
}

/** Where the built renderer is, beside the built main (out/main → out/renderer). */
export function builtPage(mainDir: string): { file: string } {
  return { file: path.join(mainDir, '..', 'renderer', 'index.html') };
}
