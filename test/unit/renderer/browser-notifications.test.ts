// Whether a notice of `mori ui`'s page becomes a browser notification: only with the permission
// granted (never in the app's window, where it is 'unsupported'), never for a request's timeout; the
// daemon's shared settings (DESIGN.md §12) hold it back while paused, for the kinds not chosen and for
// a muted session,
// attention always notifies unless paused, and before the settings are read nothing is held back; and
// never for the session in front of the person (page focused and that session selected).
import { describe, expect, it } from 'vitest';
import type { DaemonSettings } from '../../../common/daemon-settings.js';
import { NOTIFY_EVENTS } from '../../../common/notify-events.js';
import { browserNotificationWanted, type BrowserNotifyContext } from '../../../renderer/notices/browser-notifications.js';
import { permissionWords } from '../../../renderer/ui/notification-permission.js';
import type { Notice } from '../../../renderer/notices/notices.js';

const notice = (kind: Notice['kind'], sessionId: string | null = 'a'): Notice => ({ id: 1, at: 0, kind, sessionId, name: sessionId, title: `${sessionId ?? 'mori'} ${kind}`, body: '' });
const settings = (notifications: Partial<DaemonSettings['notifications']> = {}): BrowserNotifyContext['settings'] => ({ notifications: { events: [...NOTIFY_EVENTS], paused: false, muted: [], ...notifications } });
/** The person is elsewhere: the page granted, in the background, looking at another session. */
const away: BrowserNotifyContext = { permission: 'granted', settings: settings(), focused: false, selected: 'b' };
const wanted = (n: Notice, c: Partial<BrowserNotifyContext> = {}): boolean => browserNotificationWanted(n, { ...away, ...c });

describe('browserNotificationWanted', () => {
  it('notifies every kind of news, and a sessionless one, when the person is elsewhere', () => {
    for (const kind of [...NOTIFY_EVENTS, 'attention'] as const) expect(wanted(notice(kind)), kind).toBe(true);
    expect(wanted(notice('resumed', null))).toBe(true);
  });

  it('needs the permission granted: not asked yet, denied, or the app (which notifies natively) raise nothing', () => {
    for (const permission of ['default', 'denied', 'unsupported'] as const) expect(wanted(notice('crash-loop'), { permission }), permission).toBe(false);
  });

  it("never raises a request's timeout: it is the page's own news", () => {
    expect(wanted(notice('timeout', null))).toBe(false);
  });

  it("holds back the kinds the daemon's settings do not choose; attention is not one to choose", () => {
    const onlyCrashes = { settings: settings({ events: ['crash-loop'] }) };
    expect(wanted(notice('crash-loop'), onlyCrashes)).toBe(true);
    for (const kind of NOTIFY_EVENTS.filter((k) => k !== 'crash-loop')) expect(wanted(notice(kind), onlyCrashes), kind).toBe(false);
    expect(wanted(notice('attention'), { settings: settings({ events: [] }) })).toBe(true);
  });

  it("raises nothing while the daemon's settings pause notifications, attention included", () => {
    const paused = { settings: settings({ paused: true }) };
    for (const kind of [...NOTIFY_EVENTS, 'attention'] as const) expect(wanted(notice(kind), paused), kind).toBe(false);
    expect(wanted(notice('resumed', null), paused)).toBe(false);
  });

  it('nothing for a muted session (muted in the app or the page: the daemon keeps the list); others still notify', () => {
    const muted = { settings: settings({ muted: ['a', 'box:c'] }) };
    for (const kind of [...NOTIFY_EVENTS, 'attention'] as const) expect(wanted(notice(kind, 'a'), muted), kind).toBe(false);
    expect(wanted(notice('needs-input', 'box:c'), muted)).toBe(false);
    expect(wanted(notice('needs-input', 'b'), muted)).toBe(true);
    expect(wanted(notice('resumed', null), muted)).toBe(true);
  });

  it('holds nothing back before the settings are read', () => {
    expect(wanted(notice('usage-limit'), { settings: null })).toBe(true);
  });

  it('never for the session in front of the person: focused page and that session selected', () => {
    expect(wanted(notice('needs-input', 'a'), { focused: true, selected: 'a' })).toBe(false);
    // Selected but the page is in the background, or focused on another session: the person is not looking.
    expect(wanted(notice('needs-input', 'a'), { focused: false, selected: 'a' })).toBe(true);
    expect(wanted(notice('needs-input', 'a'), { focused: true, selected: 'b' })).toBe(true);
    expect(wanted(notice('needs-input', 'a'), { focused: true, selected: null })).toBe(true);
    // News of no session (the machine woke) is not the selected session's.
    expect(wanted(notice('resumed', null), { focused: true, selected: 'a' })).toBe(true);
  });
});

describe('permissionWords', () => {
  it('leaves the Allow button while the browser may still ask, and says a block and how to lift it', () => {
    expect(permissionWords('default')).toBeNull();
    expect(permissionWords('denied')).toMatch(/blocks notifications.*site settings.*reload/);
    expect(permissionWords('granted')).toMatch(/on/);
    expect(permissionWords('unsupported')).toMatch(/from the app/);
  });
});
