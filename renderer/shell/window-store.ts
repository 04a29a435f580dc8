// The window's state and what changes it (DESIGN.md §13): the sessions (re-read on each session
// event, never polled), the selection (which follows `#session=<id>` and is kept in the address),
// the open tab and dialog, which of the two screens a phone shows, the daemon connection, the notices, and the actions the header, the
// palette and the shortcuts run. Components read a snapshot (`useWindowState`) and call the actions;
// the panes hear the daemon's events through `onEvent`. What happened before the window opened (or
// while it was away) comes from the daemon's last events, each event taken once. Runs in the renderer.
import { useEffect, useState } from 'preact/hooks';
import type { DaemonSettings } from '../../common/daemon-settings.js';
import type { DaemonEvent, EditableStateFile, LiveSession } from '../../common/ipc.js';
import type { ConnectionState, HostStatus, MoriApi } from '../../common/mori-api.js';
import { linkOf, openLink } from '../ui/links.js';
import { inListOrder, shownAt } from '../sessions/shown-order.js';
import { DraftStore } from '../editor/draft-store.js';
import { timeoutNotice } from '../notices/notices.js';
import { NoticesStore } from '../notices/notices-store.js';
import { readHistory, SeenEvents } from './event-history.js';
import { withTimeoutNotices } from './timeout-notices.js';
import type { ShortcutAction } from '../ui/shortcuts.js';
import { TerminalPool } from '../terminal/terminal-pool.js';
import { stepTerminalFontSize } from '../ui/window-prefs.js';

export type Tab = 'terminal' | EditableStateFile | 'checks' | 'changes' | 'usage';
/** The window's one open dialog; rename, remove, stop, restart and handoff are about the selected session. */
/** On a phone the list and a session are two screens (styles.css's narrow layout); a wider window shows both. */
export type Screen = 'list' | 'session';

export type Dialog = 'new' | 'settings' | 'shortcuts' | 'palette' | 'rename' | 'remove' | 'stop' | 'restart' | 'handoff';
export type BrowserPermission = NotificationPermission | 'unsupported';

/** How often the "4 min ago" words are redrawn: they change by the minute. */
const CLOCK_TICK_MS = 30_000;
const RUNNING_STATES = ['running', 'starting', 'verifying', 'resuming'];
/** The longest the address waits for an idle moment after the selection moved: soon enough to look immediate. */
const HASH_IDLE_WAIT_MS = 200;

export interface WindowState {
  sessions: LiveSession[];
  selected: string | null;
  tab: Tab;
  screen: Screen;
  connection: { state: ConnectionState; detail: string };
  /** True once the connection was open at least once: a later loss is "Reconnecting…". */
  everOpen: boolean;
  /** When the connection was lost, while it is. */
  lostConnectionAt: number | null;
  dialog: Dialog | null;
  actionStatus: string;
  /** Bumped when the person asks to type into the shown terminal (Enter in the list or on its tab). */
  focusRequest: number;
  /** Bumped by Mod+F: the terminal's search box takes the keyboard. */
  searchRequest: number;
  /** The session whose Trust dialog opens once its checks are read (Review and trust…), until it has. */
  trustRequest: string | null;
  /** Bumped each time the connection comes back: the open pane is mounted afresh and reads again. */
  epoch: number;
  now: number;
  /** The browser's notification permission; 'unsupported' where the page does not notify (the app notifies natively). */
  permission: BrowserPermission;
  /** The remote hosts the window reaches (none in the app so far), each with its connection. */
  hosts: readonly HostStatus[];
}

export class WindowStore {
  state: WindowState;
  readonly pool: TerminalPool;
  readonly drafts: DraftStore;
  /** When each session last had an event. */
  readonly lastActivity = new Map<string, number>();
  /** The last attention message of each session (its install command, its file's error…), from the events. */
  readonly attentionMessages = new Map<string, string>();
  /** When each attention message came: an older one from history never replaces a newer one. */
  private readonly attentionAt = new Map<string, number>();
  /** Every event taken, from history or live: the two overlap, and an event counts once. */
  private readonly seenEvents = new SeenEvents();
  private settings: DaemonSettings | null = null;
  /** The notices, grouped per session and episode; the daemon's history and its live events go in. */
  readonly notices: NoticesStore;
  private readonly listeners = new Set<() => void>();
  private readonly eventListeners = new Set<(e: DaemonEvent) => void>();

  /** The API every part of the window uses: a request the daemon does not answer in time also becomes a notice. */
  readonly api: MoriApi;

  constructor(
    daemonApi: MoriApi,
    /** Whether the page may raise the browser's notifications (not in the app, which notifies natively). */
    private readonly pageNotifies: boolean,
  ) {
    const notifies = (): boolean => pageNotifies && typeof Notification !== 'undefined';
    this.notices = new NoticesStore(() => (notifies() ? { settings: this.settings, focused: document.hasFocus(), selected: this.state.selected } : null), (id) => this.openSession(id));
    this.api = withTimeoutNotices(daemonApi, (message) => this.notices.add(timeoutNotice(message, Date.now())));
    const api = this.api;
    this.pool = new TerminalPool(api);
    this.drafts = new DraftStore(localStorage);
    const permission: BrowserPermission = !pageNotifies || typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
    this.state = {
      sessions: [],
      selected: null,
      tab: 'terminal',
      connection: { state: 'connecting', detail: '' },
      everOpen: false,
      lostConnectionAt: null,
      dialog: null,
      actionStatus: '',
      screen: 'list',
      focusRequest: 0,
      searchRequest: 0,
      trustRequest: null,
      epoch: 0,
      now: Date.now(),
      permission,
      hosts: [],
    };
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** The daemon's events, for the panes. */
  onEvent = (l: (e: DaemonEvent) => void): (() => void) => {
    this.eventListeners.add(l);
    return () => this.eventListeners.delete(l);
  };

  get current(): LiveSession | null {
    return this.state.sessions.find((s) => s.id === this.state.selected) ?? null;
  }

  get running(): boolean {
    const c = this.current;
    return c ? RUNNING_STATES.includes(c.state) : false;
  }

  /** Connects the store to the daemon and the page; returns what undoes it. */
  start(): () => void {
    const offs = [this.followHash(), this.followPage(), this.followDaemon()];
    const clock = setInterval(() => this.set({ now: Date.now() }), CLOCK_TICK_MS);
    return () => {
      for (const off of offs) off();
      clearInterval(clock);
    };
  }

  // ---- actions ----

  /** The selection moved (the list's arrow keys): on a phone the list stays. */
  select = (id: string): void => this.set({ selected: id });
  /** A session chosen (a click or tap in the list, Needs you, Mod+1…9): on a phone its screen. */
  open = (id: string): void => this.set({ selected: id, screen: 'session' });
  /** A notification about a session was clicked (the page's, the app's through the address, or a notice in the list): its terminal. */
  openSession = (id: string): void => this.set({ selected: id, tab: 'terminal', screen: 'session' });
  /** A phone's back action: the list again, the selection kept. */
  showList = (): void => this.set({ screen: 'list' });
  setTab = (tab: Tab): void => this.set({ tab });
  openDialog = (dialog: Dialog): void => this.set({ dialog });
  closeDialog = (): void => this.set({ dialog: null });
  setActionStatus = (actionStatus: string): void => this.set({ actionStatus });

  enterTerminal = (): void => this.set({ tab: 'terminal', screen: 'session', focusRequest: this.state.focusRequest + 1 });

  searchTerminal = (): void => this.set({ tab: 'terminal', searchRequest: this.state.searchRequest + 1 });

  /** Review and trust…: the Checks tab, its Trust dialog open on what needs approval. */
  reviewTrust = (id: string): void => this.set({ tab: 'checks', trustRequest: id });
  trustAsked = (): void => this.set({ trustRequest: null });

  /** A header, palette or menu action on the selected session; its failure is said in the action line. */
  act = async (method: 'start' | 'stop' | 'checks.verify', words: string): Promise<void> => {
    const current = this.current;
    if (!current) return;
    this.set({ actionStatus: `${words}…` });
    const r = await this.api.call(method, { session: current.id });
    this.set({ actionStatus: r.ok ? '' : `${words} failed: ${r.message}` });
  };

  /** Stops the selected session's agent and starts it again (it resumes its conversation). */
  restart = async (): Promise<void> => {
    await this.act('stop', 'Restart');
    if (this.state.actionStatus === '') await this.act('start', 'Restart');
  };

  /** Whether a session's notifications are muted (the daemon's list, which the app's tray shares). */
  isMuted(id: string): boolean {
    return this.settings?.notifications.muted.includes(id) ?? false;
  }

  /** Mutes or unmutes the selected session's notifications in the daemon's settings; the app's tray follows. */
  toggleMute = async (): Promise<void> => {
    const current = this.current;
    if (!current) return;
    const got = await this.api.call('settings.get', {});
    if (!got.ok) return this.set({ actionStatus: `Mute failed: ${got.message}` });
    const n = got.value.notifications;
    const mute = !n.muted.includes(current.id);
    const muted = mute ? [...n.muted, current.id] : n.muted.filter((id) => id !== current.id);
    const r = await this.api.call('settings.set', { settings: { ...got.value, notifications: { ...n, muted } } });
    if (r.ok) this.settings = r.value;
    this.set({ actionStatus: r.ok ? '' : `${mute ? 'Mute' : 'Unmute'} failed: ${r.message}` });
  };

  /** The selected session's state folder in the file manager, where the API can open one (the app); its failure is said in the action line. */
  openStateDir = async (): Promise<void> => {
    const current = this.current;
    const open = this.api.openStateDir;
    if (!current || !open) return;
    const r = await open(current.id);
    this.set({ actionStatus: r.ok ? '' : `Open state folder failed: ${r.message}` });
  };

  /** A session the new-session dialog created: shown at once, before the list is re-read. */
  created = (s: LiveSession): void => {
    const sessions = this.state.sessions.some((x) => x.id === s.id) ? this.state.sessions : [...this.state.sessions, s];
    this.set({ sessions, selected: s.id, tab: 'terminal', screen: 'session' });
  };

  askBrowser = (): void => {
    if (this.pageNotifies && typeof Notification !== 'undefined') void Notification.requestPermission().then((permission) => this.set({ permission }));
  };

  /** A window shortcut (renderer/ui/shortcuts.ts). */
  shortcut = (action: ShortcutAction): void => {
    if (action.kind === 'leave-terminal') document.querySelector<HTMLElement>('[role="listbox"].session-list')?.focus();
    else if (action.kind === 'help') this.openDialog('shortcuts');
    else if (action.kind === 'palette') this.openDialog('palette');
    else if (action.kind === 'new-session') this.openDialog('new');
    else if (action.kind === 'search') this.searchTerminal();
    else if (action.kind === 'font-size') stepTerminalFontSize(action.step);
    else {
      const id = shownAt(action.index);
      if (id) this.open(id);
    }
  };

  /** The daemon's last events (oldest first) as if the window had been open, but nothing notified anew and no pane told; each event once. */
  takeHistory(events: readonly DaemonEvent[]): void {
    const fresh = events.filter((e) => this.seenEvents.first(e));
    for (const e of fresh) this.remember(e);
    this.notices.take(fresh, false);
    this.set({});
  }

  // ---- internals ----

  /** What the window keeps of an event about a session: its time, and an attention message. */
  private remember(e: DaemonEvent): void {
    if (!('sessionId' in e)) return;
    if (e.at >= (this.lastActivity.get(e.sessionId) ?? 0)) this.lastActivity.set(e.sessionId, e.at);
    if (e.type === 'session.attention' && e.at >= (this.attentionAt.get(e.sessionId) ?? 0)) {
      this.attentionMessages.set(e.sessionId, e.message);
      this.attentionAt.set(e.sessionId, e.at);
    }
  }

  private set(patch: Partial<WindowState>): void {
    let next = { ...this.state, ...patch };
    // An unknown or removed session selected (a stale link, a removal) falls to the top of the list, never to the welcome page.
    if (next.sessions.length > 0 && !next.sessions.some((s) => s.id === next.selected)) next = { ...next, selected: inListOrder(next.sessions)[0]?.id ?? null };
    const selectionMoved = next.selected !== this.state.selected;
    this.state = next;
    if (selectionMoved) this.keepHashSoon();
    for (const l of [...this.listeners]) l();
  }

  private hashPending = false;

  /**
   * keepHash once the window is idle: replacing the address waits on the browser's own process
   * (6–17 ms measured on a fresh load, where the first selection comes with the first list), and the
   * list and the session are shown first. keepHash reads the selection when it runs, so it writes the
   * latest one however often it moved meanwhile.
   */
  private keepHashSoon(): void {
    if (this.hashPending) return;
    this.hashPending = true;
    const run = (): void => {
      this.hashPending = false;
      this.keepHash();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: HASH_IDLE_WAIT_MS });
    else setTimeout(run, 0);
  }

  /**
   * `#session=<id>` opens that session on its terminal: the app sets it when a notification or the
   * tray is clicked, and it makes a session's view linkable in the browser.
   */
  private followHash(): () => void {
    const follow = (): void => {
      const id = /^#session=([\w-]+)$/.exec(location.hash)?.[1];
      if (id) this.openSession(id);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }

  /** The address follows the selection (replaced, not pushed: Back leaves the window rather than stepping through sessions). */
  private keepHash(): void {
    const selected = this.state.selected;
    if (selected === null || location.hash === `#session=${selected}`) return;
    // Only a hash Mori owns is replaced (the link's token is read and cleared before this runs).
    if (location.hash === '' || location.hash.startsWith('#session=')) history.replaceState(null, '', `#session=${selected}`);
  }

  /** Drafts and terminals redraw the window; unsaved edits are asked about before the page closes. */
  private followPage(): () => void {
    const redraw = (): void => this.set({});
    const offDrafts = this.drafts.onChange(redraw);
    const offPool = this.pool.onChange(redraw);
    const offNotices = this.notices.onChange(redraw);
    // Another tab of this window kept or saved a draft.
    const onStorage = (): void => this.drafts.changed();
    // Closing or reloading with unsaved edits asks first (the drafts would survive, but the person may not know).
    const onUnload = (e: BeforeUnloadEvent): void => {
      if (!this.drafts.any()) return;
      e.preventDefault();
      e.returnValue = '';
    };
    // A link in the page opens in the browser (the app's default browser), never in the window.
    const onClick = (e: MouseEvent): void => {
      const url = linkOf(e.target);
      if (url === null) return;
      e.preventDefault();
      openLink(this.api, url);
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener('beforeunload', onUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('click', onClick, true);
      offDrafts();
      offPool();
      offNotices();
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('beforeunload', onUnload);
    };
  }

  private followDaemon(): () => void {
    let refresh: number | null = null;
    const reload = (): void => {
      if (refresh !== null) return;
      // Several events in one burst (a resume emits a handful) make one re-read.
      refresh = requestAnimationFrame(() => {
        refresh = null;
        void this.api.call('list', {}).then((r) => {
          if (r.ok) this.set({ sessions: r.value, selected: this.state.selected ?? inListOrder(r.value)[0]?.id ?? null });
        });
      });
    };
    const offState = this.api.onConnection((state, detail) => {
      const s = this.state;
      let lostConnectionAt = s.lostConnectionAt;
      if (state !== 'open' && s.everOpen && lostConnectionAt === null) lostConnectionAt = Date.now();
      if (state !== 'open') return this.set({ connection: { state, detail }, lostConnectionAt });
      let epoch = s.epoch;
      if (lostConnectionAt !== null) {
        this.pool.reconnected();
        epoch++;
      }
      this.set({ connection: { state, detail }, lostConnectionAt: null, everOpen: true, epoch });
      reload();
      void readHistory(this.api).then((h) => this.takeHistory(h));
      void this.api.call('settings.get', {}).then((r) => {
        if (r.ok) this.settings = r.value;
      });
    });
    const offEvents = this.api.onEvent((e) => {
      if (!this.seenEvents.first(e)) return;
      for (const l of [...this.eventListeners]) l(e);
      this.remember(e);
      if ('sessionId' in e) {
        if (e.type.startsWith('session.') || e.type.startsWith('verify.')) reload();
        if (e.type === 'session.started') this.pool.reattach(e.sessionId);
      }
      if (e.type === 'settings.changed') this.settings = e.settings;
      this.notices.take([e]);
    });
    const offHosts = this.api.onHosts?.((hosts) => this.set({ hosts })) ?? ((): void => undefined);
    reload();
    return () => {
      offState();
      offEvents();
      offHosts();
    };
  }
}

/** The store's state in a component, redrawn on each change. */
export function useWindowState(store: WindowStore): WindowState {
  const [, redraw] = useState(0);
  useEffect(() => store.subscribe(() => redraw((n) => n + 1)), [store]);
  return store.state;
}
