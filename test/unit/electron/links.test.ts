// Links out of the app's window (main/electron/external-links.ts, main-window.ts, ipc-router.ts) with
// the Electron fakes: only well-formed http and https links open, in the default browser; file:,
// javascript:, custom schemes, credentials in the link, malformed or huge ones are refused and logged
// with where they came from. The window denies every new window and navigation (handing an http link
// on), the page's own open-link channel is refused from a foreign frame, and the page has no
// permission at all (the app notifies natively).
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IPC } from '../../../common/electron-ipc.js';
import { ExternalLinks, externalUrl } from '../../../main/electron/external-links.js';
import { IpcRouter, type IpcMainLike } from '../../../main/electron/ipc-router.js';
import { isAppUrl, MainWindow } from '../../../main/electron/main-window.js';
import { BrowserWindow, fake, invokeFrom, ipcMain, session } from '../../support/fakes/electron.js';

function links(): { links: ExternalLinks; opened: string[]; logs: string[] } {
  const opened: string[] = [];
  const logs: string[] = [];
  return { links: new ExternalLinks({ openExternal: async (u) => void opened.push(u), log: (l) => logs.push(l) }), opened, logs };
}

const PAGE = { file: '/app/out/renderer/index.html' };

describe('links out of the window', () => {
  it('opens only well-formed http and https links, without credentials', () => {
    expect(externalUrl('https://example.com/a?b=1#c')).toEqual({ ok: true, value: 'https://example.com/a?b=1#c' });
    expect(externalUrl('http://localhost:3000')).toEqual({ ok: true, value: 'http://localhost:3000/' });
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://open?x', 'smb://host/share', 'https://user:pw@example.com/', 'not a url', '', `https://e.com/${'a'.repeat(9000)}`, 42, null]) {
      expect(externalUrl(bad).ok, String(bad).slice(0, 40)).toBe(false);
    }
  });

  it('hands an accepted link to the default browser and logs a refused one with where it came from', async () => {
    const l = links();
    expect(l.links.open('https://example.com/', 'a terminal')).toMatchObject({ ok: true });
    expect(l.links.open('file:///etc/passwd', 'the window')).toMatchObject({ ok: false, code: 'forbidden' });
    await Promise.resolve();
    expect(l.opened).toEqual(['https://example.com/']);
    expect(l.logs).toEqual(['refused to open a link from the window: "file:///etc/passwd": only http and https links open, not file:']);
  });

  it('denies new windows and navigation, handing a foreign http link on, and grants the page no permission', async () => {
    const l = links();
    const w = new MainWindow({
      create: (o) => new BrowserWindow(o) as never,
      session: session.defaultSession,
      preload: '/app/out/preload/index.cjs',
      page: PAGE,
      bounds: () => null,
      saveBounds: () => undefined,
      quitting: () => false,
      openLink: (url, from) => void l.links.open(url, from),
    });
    w.open();
    const win = fake.windows.at(-1) as BrowserWindow;
    expect(win.webContents.windowOpenHandler?.({ url: 'https://docs.example/' } as never)).toEqual({ action: 'deny' });
    expect(win.webContents.windowOpenHandler?.({ url: 'javascript:alert(1)' } as never)).toEqual({ action: 'deny' });
    const nav = (url: string): boolean => {
      const e = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      win.webContents.emit('will-navigate', e, url);
      return e.defaultPrevented;
    };
    expect(nav('https://evil.example/')).toBe(true);
    expect(nav(`${pathToFileURL(PAGE.file).href}#session=x`)).toBe(true);
    expect(nav('file:///etc/passwd')).toBe(true);
    await Promise.resolve();
    expect(l.opened).toEqual(['https://docs.example/', 'https://evil.example/']);
    expect(l.logs).toHaveLength(2);
    expect(l.logs[0]).toMatch(/^refused to open a link from a new window: "javascript:alert\(1\)"/);
    expect(l.logs[1]).toMatch(/^refused to open a link from a navigation: "file:\/\/\/etc\/passwd"/);
    const decided: Record<string, boolean> = {};
    for (const p of ['notifications', 'media', 'openExternal'] as const) fake.permissionHandler?.(win.webContents as never, p, (granted) => (decided[p] = granted), {} as never);
    expect(decided).toEqual({ notifications: false, media: false, openExternal: false });
    expect(fake.permissionCheck?.(win.webContents as never, 'notifications', '', {} as never)).toBe(false);
    w.destroy();
  });

  it("takes the page's open-link requests only from the app's own page", async () => {
    const l = links();
    const logs: string[] = [];
    const router = new IpcRouter({
      ipcMain: ipcMain as unknown as IpcMainLike,
      connection: { state: 'open', request: async () => ({ ok: true, value: {} }) as never, onEvent: () => () => undefined, onState: () => () => undefined } as never,
      home: '/nowhere',
      isAppUrl: (url) => isAppUrl(PAGE, url),
      log: (line) => logs.push(line),
      openLink: (url, from) => l.links.open(url, from),
      showInFolder: () => undefined,
    });
    const wc = new BrowserWindow({}).webContents;
    const own = pathToFileURL(PAGE.file).href;
    expect(await invokeFrom(wc, own, IPC.openLink, 'https://example.com/x')).toMatchObject({ ok: true });
    expect(await invokeFrom(wc, own, IPC.openLink, 'ftp://example.com/x')).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await invokeFrom(wc, 'https://evil.example/', IPC.openLink, 'https://example.com/y')).toMatchObject({ ok: false, message: expect.stringMatching(/refused/) });
    await Promise.resolve();
    expect(l.opened).toEqual(['https://example.com/x']);
    expect(logs).toEqual([`refused ${IPC.openLink} from https://evil.example/`]);
    router.dispose();
  });
});
