// What the tray shows, decided from one snapshot of the app's state (DESIGN.md §13): the icon (the
// worst level of all sessions on every machine, or `offline` while the local daemon does not answer),
// the tooltip (with today's tokens and cost when read), and the menu as plain data whose items name an action instead of holding a click
// handler. Remote sessions come after the local ones, a section per host (`box:work` rows under
// `box`); a remote that cannot be reached is one quiet line and adds nothing to the icon. The tray
// controller turns it into Electron objects. Pure: Electron main process, no Electron import.
import { byLevel, isLive, sessionStatus, worstLevel, type Level, type WatchedSession } from '../../common/session-view.js';
import type { RemoteView } from '../remote/remote-link.js';
import { todayWords, type TodayUsage } from './tray-usage.js';
import { awakeLine, type AwakeNow } from './tray-awake.js';

export type TrayIcon = Level | 'offline';

/** What a menu item does; the controller maps each to an effect. */
export type TrayAction =
  | { kind: 'open-window'; session?: string }
  | { kind: 'open-state-dir' | 'toggle-mute'; session: string }
  /** `remote`: the host whose daemon is asked, `session` then the id that daemon gave it. */
  | { kind: 'verify' | 'start' | 'stop' | 'resume-now' | 'dont-resume'; session: string; remote?: string }
  | { kind: 'verify-all' | 'new-session' | 'toggle-start-at-login' | 'quit' | 'quit-and-stop-agents' }
  | { kind: 'pause-notifications'; for: 'hour' | 'tomorrow' | 'resume' };

export interface TrayItem {
  label?: string;
  type?: 'normal' | 'separator' | 'checkbox';
  enabled?: boolean;
  checked?: boolean;
  action?: TrayAction;
  submenu?: TrayItem[];
}

export interface TraySnapshot {
  /** The daemon connection: `restarting` while the app brings a dead daemon back. */
  daemon: { state: 'open' | 'connecting' | 'closed' | 'restarting'; detail: string };
  sessions: readonly WatchedSession[];
  /** Each remote with its sessions named `host:session` (ids `host:<id>`), by host name. */
  remotes?: readonly RemoteView[];
  /** Epoch ms until which notifications are paused, or null. */
  notificationsPausedUntil: number | null;
  startAtLogin: boolean;
  /** Sessions whose notifications are muted. */
  muted: ReadonlySet<string>;
  now: number;
  /** Today's usage across this host's sessions (tray-usage.ts), or null/absent when none was read. */
  usageToday?: TodayUsage | null;
  /** Whether the local daemon keeps the machine awake (tray-awake.ts); absent or null: not known to. */
  awake?: AwakeNow | null;
}

export interface TrayView {
  icon: TrayIcon;
  tooltip: string;
  menu: TrayItem[];
}

const SEPARATOR: TrayItem = { type: 'separator' };

/** Start/Resume or Stop by the lifecycle; at a usage limit the person decides instead: "Resume now" or "Don't resume". */
function limitOrLifecycleItems(row: WatchedSession, id = row.info.id, remote?: string): TrayItem[] {
  const { state } = row.info;
  const on = remote !== undefined ? { remote } : {};
  if (state === 'limited') return [{ label: 'Resume now', action: { kind: 'resume-now', session: id, ...on } }, { label: "Don't resume", action: { kind: 'dont-resume', session: id, ...on } }];
  if (isLive(state)) return [{ label: 'Stop', action: { kind: 'stop', session: id, ...on } }];
  return [{ label: state === 'idle' ? 'Start' : 'Resume', action: { kind: 'start', session: id, ...on } }];
}

function sessionItem(row: WatchedSession, muted: boolean): TrayItem {
  const status = sessionStatus(row);
  const { id, name } = row.info;
  return {
    label: `${name} — ${status.words}`,
    submenu: [
      { label: 'Open', action: { kind: 'open-window', session: id } },
      { label: 'Verify now', action: { kind: 'verify', session: id } },
      ...limitOrLifecycleItems(row),
      { label: 'Open state folder', action: { kind: 'open-state-dir', session: id } },
      { label: 'Mute notifications', type: 'checkbox', checked: muted, action: { kind: 'toggle-mute', session: id } },
    ],
  };
}

/**
 * A remote's session: what it is doing; open the window on it (as `host:<id>`); verify, start, stop
 * or answer its usage limit on its host's daemon (by the id that daemon gave it); how to reach it
 * from a terminal; its notifications muted.
 */
function remoteSessionItem(host: string, row: WatchedSession, muted: boolean): TrayItem {
  const id = row.info.id.startsWith(`${host}:`) ? row.info.id.slice(host.length + 1) : row.info.id;
  return {
    label: `${row.info.name} — ${sessionStatus(row).words}`,
    submenu: [
      { label: 'Open', action: { kind: 'open-window', session: row.info.id } },
      { label: 'Verify now', action: { kind: 'verify', session: id, remote: host } },
      ...limitOrLifecycleItems(row, id, host),
      { label: `mori attach ${row.info.name}`, enabled: false },
      { label: 'Mute notifications', type: 'checkbox', checked: muted, action: { kind: 'toggle-mute', session: row.info.id } },
    ],
  };
}

/** The sessions of every remote that answers: what the icon and the tooltip count besides the local ones. */
const reachableRemoteSessions = (snapshot: TraySnapshot): WatchedSession[] => (snapshot.remotes ?? []).filter((r) => r.status === 'ok').flatMap((r) => r.sessions);

/** One remote's section: its sessions under its name, or one quiet line saying why there are none. */
function remoteItems(remote: RemoteView, muted: ReadonlySet<string>): TrayItem[] {
  const why = remote.message ? [{ label: remote.message, enabled: false }] : [];
  switch (remote.status) {
    case 'connecting':
      return [{ label: `${remote.name} — connecting…`, enabled: false }];
    case 'unreachable':
      return [{ label: `${remote.name} — unreachable`, submenu: why }];
    case 'other-version':
      return [{ label: `${remote.name} — another Mori version`, submenu: why }];
    case 'ok':
      if (remote.sessions.length === 0) return [{ label: `${remote.name} — no sessions`, enabled: false }];
      return [{ label: remote.name, enabled: false }, ...[...remote.sessions].sort(byLevel).map((r) => remoteSessionItem(remote.name, r, muted.has(r.info.id)))];
  }
}

function tooltipFor(snapshot: TraySnapshot, icon: TrayIcon): string {
  if (icon === 'offline') return `Mori — ${daemonWords(snapshot.daemon)}`;
  const counts = new Map<Level, number>();
  const all = [...snapshot.sessions, ...reachableRemoteSessions(snapshot)];
  for (const row of all) {
    const l = sessionStatus(row).level;
    counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  if (all.length === 0) return 'Mori — no sessions';
  const awake = awakeLine(snapshot.awake ?? null);
  const usage = `${snapshot.usageToday ? `\n${todayWords(snapshot.usageToday)}` : ''}${awake ? `\n${awake}` : ''}`;
  const parts: string[] = [];
  if (counts.get('failing')) parts.push(`${counts.get('failing')} failing`);
  if (counts.get('needs-you')) parts.push(`${counts.get('needs-you')} need${counts.get('needs-you') === 1 ? 's' : ''} you`);
  if (counts.get('working')) parts.push(`${counts.get('working')} working`);
  if (counts.get('ok')) parts.push(`${counts.get('ok')} ok`);
  return `Mori — ${parts.join(', ')}${usage}`;
}

function daemonWords(d: TraySnapshot['daemon']): string {
  if (d.state === 'restarting') return `the Mori daemon stopped; restarting it${d.detail ? ` (${d.detail})` : ''}`;
  if (d.state === 'connecting') return 'connecting to the Mori daemon';
  return `the Mori daemon is not running${d.detail ? ` (${d.detail})` : ''}`;
}

function pauseItem(snapshot: TraySnapshot): TrayItem {
  const paused = snapshot.notificationsPausedUntil !== null && snapshot.notificationsPausedUntil > snapshot.now;
  if (paused) {
    const until = new Date(snapshot.notificationsPausedUntil ?? 0);
    const hh = String(until.getHours()).padStart(2, '0');
    const mm = String(until.getMinutes()).padStart(2, '0');
    return { label: `Notifications paused until ${hh}:${mm} — resume`, action: { kind: 'pause-notifications', for: 'resume' } };
  }
  return {
    label: 'Pause notifications',
    submenu: [
      { label: 'For 1 hour', action: { kind: 'pause-notifications', for: 'hour' } },
      { label: 'Until tomorrow', action: { kind: 'pause-notifications', for: 'tomorrow' } },
    ],
  };
}

export function trayModel(snapshot: TraySnapshot): TrayView {
  const online = snapshot.daemon.state === 'open';
  const icon: TrayIcon = online ? worstLevel([...snapshot.sessions, ...reachableRemoteSessions(snapshot)].map((r) => sessionStatus(r).level)) : 'offline';
  // Sessions needing the person come first (DESIGN.md §13), then by name.
  const rows = [...snapshot.sessions].sort(byLevel);
  const menu: TrayItem[] = [];
  if (!online) menu.push({ label: daemonWords(snapshot.daemon), enabled: false }, SEPARATOR);
  else if (rows.length === 0) menu.push({ label: 'No sessions', enabled: false }, SEPARATOR);
  else menu.push(...rows.map((r) => sessionItem(r, snapshot.muted.has(r.info.id))), SEPARATOR);
  const remotes = snapshot.remotes ?? [];
  if (remotes.length > 0) menu.push(...remotes.flatMap((r) => remoteItems(r, snapshot.muted)), SEPARATOR);
  menu.push(
    { label: 'New session…', enabled: online, action: { kind: 'new-session' } },
    { label: 'Verify all', enabled: online && rows.length > 0, action: { kind: 'verify-all' } },
    SEPARATOR,
    pauseItem(snapshot),
    { label: 'Start at login', type: 'checkbox', checked: snapshot.startAtLogin, action: { kind: 'toggle-start-at-login' } },
    SEPARATOR,
    { label: 'Open Mori', action: { kind: 'open-window' } },
    { label: 'Quit (agents keep running)', action: { kind: 'quit' } },
    { label: 'Quit and stop agents', action: { kind: 'quit-and-stop-agents' } },
  );
  return { icon, tooltip: tooltipFor(snapshot, icon), menu };
}
