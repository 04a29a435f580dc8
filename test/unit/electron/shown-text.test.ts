// What an agent wrote, in the desktop's own surfaces (main/electron/tray-controller.ts,
// notification-controller.ts): a verification summary, an attention message or a remote's message
// holding an escape sequence or a bidi override reaches the notification and the tray's menu and
// tooltip with those characters shown as escapes. The controllers take their Electron objects from
// factories; these stand-ins record what they were given.
import type { MenuItemConstructorOptions, NativeImage, NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { WatchedSession } from '../../../common/session-view.js';
import { NotificationController } from '../../../main/electron/notification-controller.js';
import { TrayController, type TrayFactory } from '../../../main/electron/tray-controller.js';
import type { TraySnapshot } from '../../../main/electron/tray-model.js';
import { row } from '../../support/session-rows.js';

const HIDDEN = 'ok\x1b[2K\x1b[1G\u202etxt.exe';
const SHOWN = 'ok\\e[2K\\e[1G\\u202etxt.exe';

describe('notifications', () => {
  it("show a session's messages with their control and bidi characters as escapes", () => {
    let rows: WatchedSession[] = [row('a'), row('b')];
    const made: NotificationConstructorOptions[] = [];
    const c = new NotificationController({
      create: (o) => {
        made.push(o);
        return { on: () => undefined, show: () => undefined };
      },
      rows: () => rows,
      focusedSession: () => null,
      pausedUntil: () => null,
      openSession: () => undefined,
    });
    c.changed([]);
    rows = [
      row('a', {}, { verify: { ok: false, summary: `checks 1/2\ncommand ${HIDDEN}` } }),
      row('b', { state: 'attention' }, { attention: { reason: 'crash-loop', message: `crashed: ${HIDDEN}\nsecond line` } }),
    ];
    c.changed([]);
    c.flush();
    c.dispose();
    expect(made.map((m) => m.body)).toEqual([`command ${SHOWN}`, `crashed: ${SHOWN}\nsecond line`]);
  });
});

describe('the tray', () => {
  it("shows a remote's message in the menu, and the tooltip, with the characters as escapes", () => {
    const menus: MenuItemConstructorOptions[][] = [];
    const tooltips: string[] = [];
    const factory: TrayFactory = {
      tray: () => ({ setImage: () => undefined, setToolTip: (t) => tooltips.push(t), setContextMenu: () => undefined, destroy: () => undefined }),
      image: () => ({}) as NativeImage,
      menu: (template) => {
        menus.push(template);
        return {} as Electron.Menu;
      },
    };
    const tray = new TrayController(factory, '/icons', () => undefined, 'linux');
    const snapshot: TraySnapshot = {
      daemon: { state: 'open', detail: '' },
      sessions: [row('here')],
      remotes: [{ name: 'box', destination: 'me@box', status: 'unreachable', message: HIDDEN, sessions: [] }],
      notificationsPausedUntil: null,
      startAtLogin: false,
      muted: new Set(),
      now: Date.UTC(2026, 10, 30, 12),
    };
    tray.render(snapshot);
    const labels = (items: MenuItemConstructorOptions[]): string[] => items.flatMap((i) => [String(i.label ?? ''), ...labels((i.submenu as MenuItemConstructorOptions[] | undefined) ?? [])]);
    const all = labels(menus[0] ?? []);
    expect(all).toContain(SHOWN);
    expect(all.join('\n')).not.toMatch(/[\x1b\u202e]/);
    expect(tooltips[0]).not.toMatch(/[\x1b\u202e]/);
  });
});
