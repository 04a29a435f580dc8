// Whether a notice becomes one of the browser's notifications (DESIGN.md §13): only where the page
// may notify (permission granted; the app's window never asks, the app notifies natively), only for
// the kinds the settings want, not while notifications are paused nor for a muted session, and never
// for the session in front of the person. Pure: runs in the renderer and in unit tests.
import type { DaemonSettings } from '../../common/daemon-settings.js';
import type { Notice } from './notices.js';

export interface BrowserNotifyContext {
  permission: NotificationPermission | 'unsupported';
  /** The daemon's settings, once read (null before: nothing is held back for want of them). */
  settings: Pick<DaemonSettings, 'notifications'> | null;
  /** Whether the page has the focus. */
  focused: boolean;
  selected: string | null;
}

export function browserNotificationWanted(n: Pick<Notice, 'kind' | 'sessionId'>, c: BrowserNotifyContext): boolean {
  if (c.permission !== 'granted' || n.kind === 'timeout') return false;
  const s = c.settings;
  if (s && (s.notifications.paused || (n.kind !== 'attention' && !s.notifications.events.includes(n.kind)))) return false;
  if (s && n.sessionId !== null && s.notifications.muted.includes(n.sessionId)) return false;
  return !(c.focused && n.sessionId !== null && n.sessionId === c.selected);
}
