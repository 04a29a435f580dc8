// A small fake of the `electron` module for testing the Electron main process in Node (DESIGN.md §14):
// no Electron binary can run here. Each fake names the real type it stands for (`implements
// Pick<Electron.X, …>` or a `satisfies` check), so a signature that drifts from electron.d.ts is a
// type error. Tests reach what happened through `fake` (shown notifications, handlers, windows).
// Loaded in place of 'electron' with `vi.mock('electron', () => import('./electron.js'))`.
import { EventEmitter } from 'node:events';
import type * as E from 'electron';

export const fake = {
  notifications: [] as FakeNotification[],
  trays: [] as Tray[],
  windows: [] as BrowserWindow[],
  handlers: new Map<string, (event: E.IpcMainInvokeEvent, ...args: unknown[]) => unknown>(),
  listeners: new Map<string, ((event: E.IpcMainEvent, ...args: unknown[]) => void)[]>(),
  singleInstance: true,
  quitCalled: 0,
  loginItem: { openAtLogin: false },
  permissionHandler: null as Parameters<E.Session['setPermissionRequestHandler']>[0],
  permissionCheck: null as Parameters<E.Session['setPermissionCheckHandler']>[0],
  headersHandler: null as ((details: { responseHeaders?: Record<string, string[]> }, cb: (r: { responseHeaders?: Record<string, string[]> }) => void) => void) | null,
  opened: [] as string[],
  /** Paths shown in the file manager (shell.showItemInFolder). */
  shown: [] as string[],
  /** URLs handed to the default browser (shell.openExternal). */
  external: [] as string[],
  online: true,
  exposed: new Map<string, unknown>(),
  /** powerSaveBlocker's holds: id → kind, while started. */
  sleepBlocks: new Map<number, string>(),
};

// ---- app ----
/** macOS's Dock: shown or not, and its badge. */
export class FakeDock implements Pick<E.Dock, 'show' | 'hide' | 'setBadge' | 'getBadge'> {
  visible = false;
  badge = '';
  show(): Promise<void> {
    this.visible = true;
    return Promise.resolve();
  }
  hide(): void {
    this.visible = false;
  }
  setBadge(text: string): void {
    this.badge = text;
  }
  getBadge(): string {
    return this.badge;
  }
}

class FakeApp extends EventEmitter implements Pick<E.App, 'requestSingleInstanceLock' | 'quit' | 'exit' | 'getPath' | 'getAppPath' | 'whenReady' | 'setLoginItemSettings' | 'getLoginItemSettings' | 'getName' | 'getVersion'> {
  isPackaged = false;
  appPath = process.cwd();
  readonly dock = new FakeDock();
  requestSingleInstanceLock(): boolean {
    return fake.singleInstance;
  }
  quit(): void {
    fake.quitCalled++;
    const e = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('before-quit', e);
    if (!e.defaultPrevented) this.emit('will-quit', e);
  }
  exit(): void {
    this.emit('exited');
  }
  getPath(name: Parameters<E.App['getPath']>[0]): string {
    return `${process.env['FAKE_ELECTRON_USER_DATA'] ?? '/tmp'}/${name}`;
  }
  getAppPath(): string {
    return this.appPath;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  setLoginItemSettings(s: E.Settings): void {
    fake.loginItem = { openAtLogin: s.openAtLogin ?? false };
  }
  getLoginItemSettings(): E.LoginItemSettings {
    return { openAtLogin: fake.loginItem.openAtLogin, openAsHidden: false, wasOpenedAtLogin: false, wasOpenedAsHidden: false, restoreState: false, status: 'enabled', executableWillLaunchAtLogin: false, launchItems: [] } as E.LoginItemSettings;
  }
  getName(): string {
    return 'Mori';
  }
  getVersion(): string {
    return '0.1.0';
  }
}
export const app = new FakeApp();

// ---- images, menus, tray ----
export class FakeImage {
  template = false;
  constructor(readonly path: string) {}
  setTemplateImage(on: boolean): void {
    this.template = on;
  }
}
export const nativeImage = {
  createFromPath: (p: string): E.NativeImage => new FakeImage(p) as unknown as E.NativeImage,
} satisfies Pick<typeof E.nativeImage, 'createFromPath'>;

export class Menu {
  constructor(readonly items: E.MenuItemConstructorOptions[]) {}
  static buildFromTemplate(template: Array<E.MenuItemConstructorOptions | E.MenuItem>): E.Menu {
    return new Menu(template as E.MenuItemConstructorOptions[]) as unknown as E.Menu;
  }
}
const _menuCheck: Pick<typeof E.Menu, 'buildFromTemplate'> = Menu;

export class Tray extends EventEmitter implements Pick<E.Tray, 'setImage' | 'setToolTip' | 'setContextMenu' | 'destroy' | 'isDestroyed'> {
  image: FakeImage;
  tooltip = '';
  menu: Menu | null = null;
  menuSets = 0;
  destroyed = false;
  constructor(image: E.NativeImage | string) {
    super();
    this.image = image as unknown as FakeImage;
    fake.trays.push(this);
  }
  setImage(image: E.NativeImage | string): void {
    this.image = image as unknown as FakeImage;
  }
  setToolTip(t: string): void {
    this.tooltip = t;
  }
  setContextMenu(menu: E.Menu | null): void {
    this.menu = menu as unknown as Menu | null;
    this.menuSets++;
  }
  destroy(): void {
    this.destroyed = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

// ---- notifications ----
export class FakeNotification extends EventEmitter implements Pick<E.Notification, 'show' | 'close'> {
  shown = false;
  constructor(readonly options: E.NotificationConstructorOptions) {
    super();
  }
  static isSupported(): boolean {
    return true;
  }
  show(): void {
    this.shown = true;
    fake.notifications.push(this);
  }
  close(): void {
    this.shown = false;
  }
}
export { FakeNotification as Notification };
const _notificationCheck: Pick<typeof E.Notification, 'isSupported'> = FakeNotification;

// ---- power, network, shell ----
class FakePowerMonitor extends EventEmitter {}
export const powerMonitor = new FakePowerMonitor();
let nextBlock = 1;
export const powerSaveBlocker = {
  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number {
    const id = nextBlock++;
    fake.sleepBlocks.set(id, type);
    return id;
  },
  stop(id: number): boolean {
    return fake.sleepBlocks.delete(id);
  },
  isStarted: (id: number): boolean => fake.sleepBlocks.has(id),
} satisfies Pick<typeof E.powerSaveBlocker, 'start' | 'stop' | 'isStarted'>;
export const net = { isOnline: (): boolean => fake.online } satisfies Pick<typeof E.net, 'isOnline'>;
/** The theme the app asks Chromium for (the page's prefers-color-scheme follows it). */
export const nativeTheme: Pick<E.NativeTheme, 'themeSource'> = { themeSource: 'system' };
export const shell = {
  openPath: async (p: string): Promise<string> => {
    fake.opened.push(p);
    return '';
  },
  openExternal: async (url: string): Promise<void> => {
    fake.external.push(url);
  },
  showItemInFolder: (p: string): void => {
    fake.shown.push(p);
  },
} satisfies Pick<typeof E.shell, 'openPath' | 'openExternal' | 'showItemInFolder'>;

// ---- sessions, web contents, windows ----
const fakeSession = {
  setPermissionRequestHandler: (h: Parameters<E.Session['setPermissionRequestHandler']>[0]) => void (fake.permissionHandler = h),
  setPermissionCheckHandler: (h: Parameters<E.Session['setPermissionCheckHandler']>[0]) => void (fake.permissionCheck = h),
  webRequest: { onHeadersReceived: (h: NonNullable<typeof fake.headersHandler>) => void (fake.headersHandler = h) },
};
export const session = { defaultSession: fakeSession as unknown as E.Session };

let nextId = 1;
export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  url = '';
  sent: { channel: string; args: unknown[] }[] = [];
  executed: string[] = [];
  windowOpenHandler: Parameters<E.WebContents['setWindowOpenHandler']>[0] | null = null;
  readonly mainFrame = { url: '', parent: null as unknown };
  readonly session = fakeSession;
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(h: Parameters<E.WebContents['setWindowOpenHandler']>[0]): void {
    this.windowOpenHandler = h;
  }
  async executeJavaScript(code: string): Promise<unknown> {
    this.executed.push(code);
    return undefined;
  }
  getURL(): string {
    return this.url;
  }
  private destroyed = false;
  /** Acts out the contents going away (the window destroyed): 'destroyed', as Electron emits it. */
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}
const _wcCheck: Pick<E.WebContents, 'send' | 'setWindowOpenHandler' | 'getURL' | 'isDestroyed'> = new FakeWebContents();

export class BrowserWindow extends EventEmitter implements Pick<E.BrowserWindow, 'show' | 'hide' | 'focus' | 'isVisible' | 'isFocused' | 'isMinimized' | 'restore' | 'getBounds' | 'setBounds' | 'loadFile' | 'loadURL' | 'destroy' | 'isDestroyed'> {
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;
  bounds: E.Rectangle;
  constructor(readonly options: E.BrowserWindowConstructorOptions) {
    super();
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 };
    fake.windows.push(this);
  }
  static getAllWindows(): BrowserWindow[] {
    return fake.windows.filter((w) => !w.destroyed);
  }
  show(): void {
    this.visible = true;
    this.focused = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    this.focused = true;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  getBounds(): E.Rectangle {
    return this.bounds;
  }
  setBounds(b: Partial<E.Rectangle>): void {
    this.bounds = { ...this.bounds, ...b };
  }
  async loadFile(file: string, options?: E.LoadFileOptions): Promise<void> {
    this.webContents.url = `file://${file}${options?.hash ? `#${options.hash}` : ''}`;
    this.webContents.mainFrame.url = this.webContents.url;
  }
  async loadURL(url: string): Promise<void> {
    this.webContents.url = url;
    this.webContents.mainFrame.url = url;
  }
  /** Acts out the person closing the window: listeners may preventDefault, as in Electron. */
  userClose(): boolean {
    const e = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('close', e);
    if (!e.defaultPrevented) this.destroy();
    return !e.defaultPrevented;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('closed');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

// ---- IPC ----
export const ipcMain = {
  handle(channel: string, listener: (event: E.IpcMainInvokeEvent, ...args: never[]) => unknown): void {
    // The real signature takes `any[]`; the stored handler is called with unknown arguments.
    const stored = listener as (event: E.IpcMainInvokeEvent, ...args: unknown[]) => unknown;
    fake.handlers.set(channel, stored);
  },
  removeHandler(channel: string): void {
    fake.handlers.delete(channel);
  },
  on(channel: string, listener: (event: E.IpcMainEvent, ...args: never[]) => void): E.IpcMain {
    const stored = listener as (event: E.IpcMainEvent, ...args: unknown[]) => void;
    fake.listeners.set(channel, [...(fake.listeners.get(channel) ?? []), stored]);
    return ipcMain as unknown as E.IpcMain;
  },
} satisfies Pick<E.IpcMain, 'handle' | 'removeHandler' | 'on'>;

/** A renderer's invoke as the router sees it: from a frame at `url` of `contents`. */
export function invokeFrom(contents: FakeWebContents, url: string, channel: string, ...args: unknown[]): Promise<unknown> {
  const handler = fake.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  const frame = { url, parent: null };
  return Promise.resolve(handler({ sender: contents, senderFrame: frame, frameId: 1, processId: 1 } as unknown as E.IpcMainInvokeEvent, ...args));
}
export function sendFrom(contents: FakeWebContents, url: string, channel: string, ...args: unknown[]): void {
  for (const l of fake.listeners.get(channel) ?? []) l({ sender: contents, senderFrame: { url, parent: null } } as unknown as E.IpcMainEvent, ...args);
}

// ---- preload side ----
export const contextBridge = {
  exposeInMainWorld: (key: string, api: unknown): void => void fake.exposed.set(key, api),
} satisfies Pick<E.ContextBridge, 'exposeInMainWorld'>;
export const ipcRenderer = new EventEmitter();

export default { app, nativeImage, Menu, Tray, Notification: FakeNotification, powerMonitor, powerSaveBlocker, net, shell, session, BrowserWindow, ipcMain, contextBridge, ipcRenderer };
