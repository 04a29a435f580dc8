// The tray (DESIGN.md §13), a thin shell over trayModel: on every change of the app's state it
// renders the whole view again — icon, tooltip, and a menu built anew and set again (Linux shows a
// changed menu only after setContextMenu) — and never on a timer (a timed rebuild reshuffles the
// macOS menu bar). Electron objects come from a factory so tests pass stand-ins. Electron main process.
import path from 'node:path';
import type { MenuItemConstructorOptions, NativeImage } from 'electron';
import { visibleLines, visibleText } from '../../common/visible-text.js';
import { trayModel, type TrayAction, type TrayIcon, type TrayItem, type TraySnapshot, type TrayView } from './tray-model.js';

export interface TrayLike {
  setImage(image: NativeImage): void;
  setToolTip(tooltip: string): void;
  setContextMenu(menu: Electron.Menu | null): void;
  destroy(): void;
}

export interface TrayFactory {
  tray(image: NativeImage): TrayLike;
  image(file: string, template: boolean): NativeImage;
  menu(template: MenuItemConstructorOptions[]): Electron.Menu;
}

/** The icon file for a state: `build/tray/<state>Template.png` on macOS (a Template image follows the menu bar's colour), `<state>.png` elsewhere. */
export function trayIconFile(iconDir: string, icon: TrayIcon, platform: NodeJS.Platform): string {
  return path.join(iconDir, platform === 'darwin' ? `${icon}Template.png` : `${icon}.png`);
}

export class TrayController {
  private tray: TrayLike | null = null;
  private lastIcon: TrayIcon | null = null;
  view: TrayView | null = null;

  constructor(
    private readonly factory: TrayFactory,
    private readonly iconDir: string,
    private readonly onAction: (a: TrayAction) => void,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** Renders the snapshot; idempotent, cheap enough to call on every change. */
  render(snapshot: TraySnapshot): void {
    const view = trayModel(snapshot);
    this.view = view;
    const file = trayIconFile(this.iconDir, view.icon, this.platform);
    const template = this.platform === 'darwin';
    if (!this.tray) {
      this.tray = this.factory.tray(this.factory.image(file, template));
    } else if (view.icon !== this.lastIcon) {
      this.tray.setImage(this.factory.image(file, template));
    }
    this.lastIcon = view.icon;
    this.tray.setToolTip(visibleLines(view.tooltip));
    this.tray.setContextMenu(this.factory.menu(view.menu.map((i) => this.toElectron(i))));
  }

  destroy(): void {
    this.tray?.destroy();
    this.tray = null;
  }

  private toElectron(item: TrayItem): MenuItemConstructorOptions {
    const out: MenuItemConstructorOptions = {};
    // Labels carry session names, remote messages and status words: any control or bidi character in them is shown.
    if (item.label !== undefined) out.label = visibleText(item.label);
    if (item.type) out.type = item.type;
    if (item.enabled !== undefined) out.enabled = item.enabled;
    if (item.checked !== undefined) out.checked = item.checked;
    if (item.submenu) out.submenu = item.submenu.map((i) => this.toElectron(i));
    const action = item.action;
    if (action) out.click = () => this.onAction(action);
    return out;
  }
}
