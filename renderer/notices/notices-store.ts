// The window's notices (DESIGN.md §13): the book of groups (notice-groups.ts) the daemon's events go
// into — its history, oldest first, and then each live event — and the window's own notices; the
// person's dismissing and clearing; and the browser's notification for each group's news where the
// page may raise one (browser-notifications.ts decides). Runs in the renderer.
import type { DaemonEvent } from '../../common/ipc.js';
import { visibleLines, visibleText } from '../../common/visible-text.js';
import { browserNotificationWanted, type BrowserNotifyContext } from './browser-notifications.js';
import { clearGroups, dismissGroup, emptyBook, takeEvents, takeNotice, type NoticeBook, type NoticeGroup } from './notice-groups.js';
import type { Notice } from './notices.js';

export class NoticesStore {
  private book: NoticeBook = emptyBook();
  private readonly listeners = new Set<() => void>();

  constructor(
    /** Whether the page may raise the browser's notifications, and what decides them now (null: never, the app notifies natively). */
    private readonly context: () => Omit<BrowserNotifyContext, 'permission'> | null,
    /** A browser notification was clicked: the window on its session. */
    private readonly open: (sessionId: string) => void,
  ) {}

  /** Newest first. */
  get groups(): readonly NoticeGroup[] {
    return this.book.groups;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events, oldest first (the daemon's history, or one live event); `tell`: the browser's notifications for their news (not for history). */
  take(events: readonly DaemonEvent[], tell = true): void {
    const { book, told } = takeEvents(this.book, events);
    this.replace(book);
    if (tell) for (const g of told) this.notifyBrowser(g);
  }

  /** A notice of the window's own (a request not answered in time). */
  add(n: Notice): void {
    this.replace(takeNotice(this.book, n));
  }

  dismiss = (key: string): void => this.replace(dismissGroup(this.book, key));

  clear = (): void => this.replace(clearGroups(this.book));

  private replace(book: NoticeBook): void {
    this.book = book;
    for (const l of [...this.listeners]) l();
  }

  /** The browser's notification, when allowed and wanted, never for the session in front of the person. */
  private notifyBrowser(g: NoticeGroup): void {
    const c = this.context();
    if (c === null || typeof Notification === 'undefined') return;
    if (!browserNotificationWanted(g, { ...c, permission: Notification.permission })) return;
    // One notification per group: an episode's outcome replaces what it said before.
    const note = new Notification(visibleText(g.title), { body: visibleLines(g.body), tag: g.key });
    note.onclick = () => {
      window.focus();
      if (g.sessionId) this.open(g.sessionId);
    };
  }
}
