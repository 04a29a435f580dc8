// The window (DESIGN.md §13): the sessions list on the left; the selected session's header with its
// state in words and its actions, and tabs for its terminal, its three state files, and its checks;
// the notices of what happened; dialogs for a new session and the settings. Everything is live from
// the daemon's events (the list is re-read on each session event, never polled). A banner says when the
// daemon connection is down; on its return terminals re-attach and the open pane reads afresh.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DaemonSettings } from '../common/daemon-settings.js';
import type { DaemonEvent, EditableStateFile, SessionInfo } from '../common/ipc.js';
import type { ConnectionState, MoriApi } from '../common/mori-api.js';
import { ChangesTab } from './changes-tab.js';
import { ChecksPane } from './checks-pane.js';
import { DraftStore } from './draft-store.js';
import { NewSessionDialog } from './new-session-dialog.js';
import { rovingIndex } from './roving.js';
import { noticeFor, type Notice } from './notices.js';
import { SessionAdvice } from './session-advice.js';
import { SessionsSidebar } from './sessions-sidebar.js';
import { SidebarSplitter } from './sidebar-splitter.js';
import { SessionManage } from './session-manage.js';
import { SessionTitle } from './session-title.js';
import { SettingsDialog } from './settings-dialog.js';
import { Palette, type PaletteItem } from './palette.js';
import { keysWords } from './shortcuts.js';
import { useWindowKeys } from './use-window-keys.js';
import { ShortcutsDialog } from './shortcuts-dialog.js';
import { inListOrder, shownAt } from './shown-order.js';
import { StateEditor } from './state-editor.js';
import { TerminalPane } from './terminal-pane.js';
import { TerminalPool } from './terminal-pool.js';
import { WorkLog } from './work-log.js';

type Tab = 'terminal' | EditableStateFile | 'checks' | 'changes';
const TABS: { id: Tab; label: string }[] = [
  { id: 'terminal', label: 'Terminal' },
  { id: 'session_state.md', label: 'session_state.md' },
  { id: 'environment.md', label: 'environment.md' },
  { id: 'work_log.md', label: 'work_log.md' },
  { id: 'checks', label: 'Checks' },
  { id: 'changes', label: 'Changes' },
];
/** Notices kept in the page: the latest ones; older ones are in each session's work log. */
const MAX_NOTICES = 100;
/** How often the "4 min ago" words are redrawn: they change by the minute. */
const CLOCK_TICK_MS = 30_000;

export function App(props: { api: MoriApi }) {
  const { api } = props;
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('terminal');
  const [connection, setConnection] = useState<{ state: ConnectionState; detail: string }>({ state: 'connecting', detail: '' });
  const [notices, setNotices] = useState<Notice[]>([]);
  const [dialog, setDialog] = useState<'new' | 'settings' | 'shortcuts' | 'palette' | null>(null);
  const [actionStatus, setActionStatus] = useState('');
  /** Bumped when the person asks to type into the shown terminal (Enter in the list or on its tab). */
  const [focusRequest, setFocusRequest] = useState(0);
  /** Bumped by Mod+F: the terminal's search box takes the keyboard. */
  const [searchRequest, setSearchRequest] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported'>(typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);
  const lastActivity = useRef(new Map<string, number>());
  /** The last attention message of each session (its install command, its file's error…), from the events. */
  const attentionMessages = useRef(new Map<string, string>());
  const listeners = useRef(new Set<(e: DaemonEvent) => void>());
  const settings = useRef<DaemonSettings | null>(null);
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;

  // `#session=<id>` opens that session: the app sets it when a notification or the tray is clicked,
  // and it makes a session's view linkable in the browser. The address follows the selection (replaced,
  // not pushed: Back leaves the window rather than stepping through sessions).
  useEffect(() => {
    const follow = (): void => {
      const id = /^#session=([\w-]+)$/.exec(location.hash)?.[1];
      if (id) setSelected(id);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => {
    if (selected === null || location.hash === `#session=${selected}`) return;
    // Only a hash Mori owns is replaced (the link's token is read and cleared before this runs).
    if (location.hash === '' || location.hash.startsWith('#session=')) history.replaceState(null, '', `#session=${selected}`);
  }, [selected]);
  const pool = useMemo(() => new TerminalPool(api), [api]);
  const drafts = useMemo(() => new DraftStore(localStorage), []);
  const [, redraw] = useState(0);
  /** Bumped each time the connection comes back: the open pane is mounted afresh and reads again. */
  const [epoch, setEpoch] = useState(0);
  const everOpen = useRef(false);
  const lostConnectionAt = useRef<number | null>(null);

  useEffect(() => {
    const offDrafts = drafts.onChange(() => redraw((n) => n + 1));
    const offPool = pool.onChange(() => redraw((n) => n + 1));
    // Another tab of this window kept or saved a draft.
    const onStorage = (): void => drafts.changed();
    // Closing or reloading with unsaved edits asks first (the drafts would survive, but the person may not know).
    const onUnload = (e: BeforeUnloadEvent): void => {
      if (!drafts.any()) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      offDrafts();
      offPool();
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [drafts, pool]);

  const onEvent = (l: (e: DaemonEvent) => void): (() => void) => {
    listeners.current.add(l);
    return () => listeners.current.delete(l);
  };

  useEffect(() => {
    let refresh: number | null = null;
    const reload = (): void => {
      if (refresh !== null) return;
      // Several events in one burst (a resume emits a handful) make one re-read.
      refresh = requestAnimationFrame(() => {
        refresh = null;
        void api.call('list', {}).then((r) => {
          if (!r.ok) return;
          setSessions(r.value);
          setSelected((cur) => cur ?? inListOrder(r.value)[0]?.id ?? null);
        });
      });
    };
    const offState = api.onConnection((state, detail) => {
      setConnection({ state, detail });
      if (state !== 'open' && everOpen.current && lostConnectionAt.current === null) lostConnectionAt.current = Date.now();
      if (state === 'open') {
        if (lostConnectionAt.current !== null) {
          lostConnectionAt.current = null;
          pool.reconnected();
          setEpoch((n) => n + 1);
        }
        everOpen.current = true;
        reload();
        void api.call('settings.get', {}).then((r) => {
          if (r.ok) settings.current = r.value;
        });
      }
    });
    const offEvents = api.onEvent((e) => {
      for (const l of [...listeners.current]) l(e);
      if ('sessionId' in e) {
        lastActivity.current.set(e.sessionId, e.at);
        if (e.type === 'session.attention') attentionMessages.current.set(e.sessionId, e.message);
        if (e.type.startsWith('session.') || e.type.startsWith('verify.')) reload();
        if (e.type === 'session.started') pool.reattach(e.sessionId);
      }
      if (e.type === 'settings.changed') settings.current = e.settings;
      const n = noticeFor(e);
      if (n) {
        setNotices((old) => [n, ...old].slice(0, MAX_NOTICES));
        notifyBrowser(n);
      }
    });
    reload();
    const clock = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => {
      offState();
      offEvents();
      clearInterval(clock);
    };
  }, [api]);

  /** The browser's notification, when allowed and wanted, never for the session in front of the person. */
  const notifyBrowser = (n: Notice): void => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const s = settings.current;
    if (s && (s.notifications.paused || (n.kind !== 'attention' && !s.notifications.events.includes(n.kind)))) return;
    if (document.hasFocus() && n.sessionId !== null && n.sessionId === selectedRef.current) return;
    const note = new Notification(n.title, { body: n.body, tag: `${n.sessionId ?? 'mori'}:${n.kind}` });
    note.onclick = () => {
      window.focus();
      if (n.sessionId) setSelected(n.sessionId);
    };
  };

  const askBrowser = (): void => {
    if (typeof Notification !== 'undefined') void Notification.requestPermission().then(setPermission);
  };

  useWindowKeys((action) => {
    if (action.kind === 'leave-terminal') document.querySelector<HTMLElement>('[role="listbox"].session-list')?.focus();
    else if (action.kind === 'help') setDialog('shortcuts');
    else if (action.kind === 'palette') setDialog('palette');
    else if (action.kind === 'search') {
      setTab('terminal');
      setSearchRequest((n) => n + 1);
    } else {
      const id = shownAt(action.index);
      if (id) setSelected(id);
    }
  });
  const enterTerminal = (): void => {
    setTab('terminal');
    setFocusRequest((n) => n + 1);
  };

  const current = sessions.find((s) => s.id === selected) ?? null;
  // An unknown or removed session selected (a stale link, a removal) falls to the top of the list, never to the welcome page.
  const top = inListOrder(sessions)[0]?.id ?? null;
  useEffect(() => {
    if (current === null && top !== null) setSelected(top);
  }, [current, top]);

  const act = async (method: 'start' | 'stop' | 'checks.verify', words: string): Promise<void> => {
    if (!current) return;
    setActionStatus(`${words}…`);
    const r = await api.call(method, { session: current.id });
    setActionStatus(r.ok ? '' : `${words} failed: ${r.message}`);
  };

  /** The palette's sessions (in the list's order, the first nine with their Mod+digit) and actions, each with its shortcut. */
  const paletteItems = (): PaletteItem[] => {
    const mac = /Mac/.test(navigator.platform);
    const items: PaletteItem[] = inListOrder(sessions).map((s, i) => ({
      id: `go-${s.id}`,
      label: `Go to ${s.name}`,
      ...(i < 9 ? { keys: keysWords(`Mod+${i + 1}`, mac) } : {}),
      run: () => setSelected(s.id),
    }));
    if (current) {
      items.push({ id: 'verify', label: `Verify ${current.name}`, run: () => void act('checks.verify', 'Verify') });
      const resume = current.intent.kind === 'interrupted' ? 'Resume' : 'Start';
      items.push(running ? { id: 'stop', label: `Stop ${current.name}`, run: () => void act('stop', 'Stop') } : { id: 'start', label: `${resume} ${current.name}`, run: () => void act('start', resume) });
      items.push({ id: 'search', label: 'Search the terminal', keys: keysWords('Mod+F', mac), run: () => (setTab('terminal'), setSearchRequest((n) => n + 1)) });
    }
    items.push({ id: 'new', label: 'New session', run: () => setDialog('new') });
    items.push({ id: 'settings', label: 'Settings', run: () => setDialog('settings') });
    items.push({ id: 'shortcuts', label: 'Keyboard shortcuts', keys: '?', run: () => setDialog('shortcuts') });
    return items;
  };

  const unsaved: string[] = current ? drafts.files(current.id) : [];
  const running = current ? ['running', 'starting', 'verifying', 'resuming'].includes(current.state) : false;
  return (
    <div class="app">
      <aside class="sidebar" aria-label="Sessions and notices">
        <div class="brand">Mori</div>
        <SessionsSidebar sessions={sessions} selected={selected} lastActivity={lastActivity.current} now={now} onSelect={setSelected} onEnter={enterTerminal} />
        <div class="sidebar-actions">
          <button type="button" class="primary" onClick={() => setDialog('new')}>
            New session
          </button>
          <button type="button" onClick={() => setDialog('settings')}>
            Settings
          </button>
        </div>
        <section class="notices" aria-label="Notifications">
          <h2>Notifications</h2>
          {notices.length === 0 ? <p class="muted">Nothing yet.</p> : null}
          {/* A live region: each new notice is read out as it arrives. */}
          <ul aria-live="polite" aria-relevant="additions">
            {notices.map((n) => (
              <li key={n.id} class={`notice notice-${n.kind}`}>
                <button type="button" class="link" onClick={() => n.sessionId && setSelected(n.sessionId)}>
                  {n.title}
                </button>
                <span class="muted">{new Date(n.at).toLocaleTimeString()}</span>
                <div>{n.body}</div>
              </li>
            ))}
          </ul>
          {permission === 'default' ? (
            <button type="button" onClick={askBrowser}>
              Allow browser notifications
            </button>
          ) : null}
        </section>
        <SidebarSplitter />
      </aside>
      <main class="main">
        {connection.state !== 'open' ? (
          <div class="banner banner-reconnect" role="status" aria-live="polite">
            <strong>{everOpen.current ? 'Reconnecting…' : 'Connecting to the Mori daemon…'}</strong>
            {pool.inputLostSince(lostConnectionAt.current ?? 0) ? <span class="banner-lost">What you typed meanwhile was not sent.</span> : null}
            {connection.detail ? (
              <span class="muted banner-detail" title={connection.detail}>
                {connection.detail}
              </span>
            ) : null}
          </div>
        ) : null}
        {current ? (
          <>
            <header class="session-header">
              <SessionTitle info={current} />
              <div class="session-actions">
                <button type="button" onClick={() => void act('checks.verify', 'Verify')}>
                  Verify
                </button>
                {running ? (
                  <button type="button" onClick={() => void act('stop', 'Stop')}>
                    Stop
                  </button>
                ) : (
                  <button type="button" onClick={() => void act('start', current.intent.kind === 'interrupted' ? 'Resume' : 'Start')}>
                    {current.intent.kind === 'interrupted' ? 'Resume' : 'Start'}
                  </button>
                )}
                <SessionManage api={api} session={current} onStatus={setActionStatus} />
              </div>
            </header>
            {actionStatus ? (
              <div class="muted action-status" role="status">
                {actionStatus}
              </div>
            ) : null}
            <SessionAdvice
              key={current.id}
              api={api}
              pool={pool}
              info={current}
              message={attentionMessages.current.get(current.id) ?? null}
              onOpen={setTab}
              onStatus={setActionStatus}
            />
            <div role="tablist" aria-label="Session views" class="tabs">
              {TABS.map((t) => (
                <button
                  type="button"
                  role="tab"
                  key={t.id}
                  id={`tab-${t.id}`}
                  aria-selected={tab === t.id}
                  aria-controls={`panel-${t.id}`}
                  tabIndex={tab === t.id ? 0 : -1}
                  onClick={() => setTab(t.id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && t.id === 'terminal') {
                      // Enter on the Terminal tab takes the keyboard into the terminal (and is not typed there).
                      e.preventDefault();
                      enterTerminal();
                      return;
                    }
                    const n = rovingIndex(e.key, TABS.findIndex((x) => x.id === tab), TABS.length);
                    const next = n === null ? undefined : TABS[n];
                    if (next) {
                      e.preventDefault();
                      setTab(next.id);
                      document.getElementById(`tab-${next.id}`)?.focus();
                    }
                  }}
                >
                  {t.label}
                  {unsaved.includes(t.id) ? (
                    <span class="tab-unsaved" aria-label="unsaved changes" title="Unsaved changes">
                      ●
                    </span>
                  ) : null}
                </button>
              ))}
            </div>
            <div class="panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
              <TerminalPane api={api} pool={pool} sessionId={current.id} visible={tab === 'terminal'} focusRequest={focusRequest} searchRequest={searchRequest} />
              {tab === 'session_state.md' || tab === 'environment.md' ? <StateEditor key={`${current.id}:${tab}:${epoch}`} api={api} sessionId={current.id} file={tab} drafts={drafts} onEvent={onEvent} /> : null}
              {tab === 'work_log.md' ? <WorkLog key={`${current.id}:${epoch}`} api={api} sessionId={current.id} onEvent={onEvent} /> : null}
              {tab === 'checks' ? <ChecksPane key={`${current.id}:${epoch}`} api={api} sessionId={current.id} onEvent={onEvent} /> : null}
              {tab === 'changes' ? <ChangesTab key={`${current.id}:${epoch}`} api={api} session={current} onEvent={onEvent} /> : null}
            </div>
          </>
        ) : (
          <div class="welcome">
            <h1>Mori</h1>
            <p>Keeps coding agents working through crashes, sleep, network drops and restarts.</p>
          </div>
        )}
      </main>
      {dialog === 'new' ? (
        <NewSessionDialog
          api={api}
          onClose={() => setDialog(null)}
          onCreated={(s) => {
            setSessions((old) => (old.some((x) => x.id === s.id) ? old : [...old, s]));
            setSelected(s.id);
            setTab('terminal');
          }}
        />
      ) : null}
      {dialog === 'palette' ? <Palette items={paletteItems()} onClose={() => setDialog(null)} /> : null}
      {dialog === 'shortcuts' ? <ShortcutsDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'settings' ? <SettingsDialog api={api} onClose={() => setDialog(null)} browserNotifications={permission} onAskBrowser={askBrowser} /> : null}
    </div>
  );
}
