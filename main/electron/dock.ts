// The macOS Dock while the window is open (DESIGN.md §13): LSUIElement keeps Mori out of the Dock
// while only the tray is up; with the window open Mori shows there, badged with how many sessions
// need the person (needs you, or failing). Elsewhere there is no Dock (`app.dock` is undefined) and
// this does nothing. Electron main process.
import type { Dock } from 'electron';
import { background } from '../background.js';
import { needsYou, type WatchedSession } from '../../common/session-view.js';

/** Sessions that need the person: the tray's "needs you" and "failing" levels. */
export function needYouCount(rows: readonly WatchedSession[]): number {
  return rows.filter(needsYou).length;
}

export class DockController {
  private windowOpen = false;
  private count = 0;

  constructor(private readonly dock: Pick<Dock, 'show' | 'hide' | 'setBadge'> | undefined) {}

  /** The window was shown or hidden. */
  window(visible: boolean): void {
    if (this.windowOpen === visible) return;
    this.windowOpen = visible;
    if (!this.dock) return;
    if (visible) background(this.dock.show(), 'showing Mori in the Dock');
    else this.dock.hide();
    this.paint();
  }

  /** The sessions changed. */
  sessions(rows: readonly WatchedSession[]): void {
    this.count = needYouCount(rows);
    this.paint();
  }

  private paint(): void {
    this.dock?.setBadge(this.windowOpen && this.count > 0 ? String(this.count) : '');
  }
}
