// The tray's decisions (main/electron/tray-model.ts, common/session-view.ts): the icon is the worst of all
// sessions (offline while the daemon does not answer), needing-you sessions sort first, each state
// reads in words, and the menu carries every action DESIGN.md §13 names.
import { describe, expect, it } from 'vitest';
import { row } from '../../support/session-rows.js';
import type { WatchedSession } from '../../../common/session-view.js';
import { trayModel, type TrayItem, type TraySnapshot } from '../../../main/electron/tray-model.js';


const snap = (sessions: WatchedSession[], over: Partial<TraySnapshot> = {}): TraySnapshot => ({
  daemon: { state: 'open', detail: '' },
  sessions,
  notificationsPausedUntil: null,
  startAtLogin: false,
  muted: new Set(),
  now: Date.UTC(2026, 10, 30, 12),
  ...over,
});
const labels = (items: TrayItem[]): string[] => items.filter((i) => i.label).map((i) => i.label ?? '');

describe('trayModel', () => {
  it('shows the worst state of all sessions in the icon, and sorts the sessions needing the person first', () => {
    expect(trayModel(snap([row('a')])).icon).toBe('ok');
    expect(trayModel(snap([row('a'), row('b', { activity: 'working' })])).icon).toBe('working');
    const needs = trayModel(snap([row('a', { activity: 'working' }), row('b', { activity: 'needs-input' })]));
    expect(needs.icon).toBe('needs-you');
    expect(labels(needs.menu).slice(0, 2)).toEqual(['b — needs input', 'a — working']);
    expect(needs.tooltip).toBe('Mori — 1 needs you, 1 working');
    const loop = row('c', { state: 'attention', intent: { kind: 'attention', reason: 'crash-loop' } });
    const failing = trayModel(snap([row('b', { activity: 'needs-input' }), loop]));
    expect(failing.icon).toBe('failing');
    expect(labels(failing.menu)[0]).toBe('c — crash loop');
    const verify = trayModel(snap([row('d', {}, { verify: { ok: false, summary: 'tests: FAIL\nexit 1' } })]));
    expect(verify.icon).toBe('failing');
    expect(labels(verify.menu)[0]).toBe('d — verification failed');
  });

  it('says the daemon is gone or restarting instead of listing stale sessions', () => {
    const v = trayModel(snap([row('a')], { daemon: { state: 'restarting', detail: 'the Mori daemon went away' } }));
    expect(v.icon).toBe('offline');
    expect(v.tooltip).toMatch(/restarting/);
    expect(v.menu[0]).toMatchObject({ enabled: false });
    expect(labels(v.menu)).not.toContain('a — waiting');
    expect(v.menu.find((i) => i.label === 'New session…')?.enabled).toBe(false);
  });

  it('gives each session open, verify, stop or resume, its state folder and a mute; then the app-wide items', () => {
    const v = trayModel(snap([row('a'), row('s', { state: 'stopped', intent: { kind: 'user-stopped' } })], { muted: new Set(['id-a']) }));
    const a = v.menu.find((i) => i.label?.startsWith('a —'));
    expect(labels(a?.submenu ?? [])).toEqual(['Open', 'Verify now', 'Stop', 'Open state folder', 'Mute notifications']);
    expect(a?.submenu?.at(-1)?.checked).toBe(true);
    expect(a?.submenu?.[0]?.action).toEqual({ kind: 'open-window', session: 'id-a' });
    const s = v.menu.find((i) => i.label?.startsWith('s —'));
    expect(s?.submenu?.[2]).toMatchObject({ label: 'Resume', action: { kind: 'start', session: 'id-s' } });
    expect(labels(v.menu).slice(2)).toEqual(['New session…', 'Verify all', 'Pause notifications', 'Start at login', 'Open Mori', 'Quit (agents keep running)', 'Quit and stop agents']);
  });

  it('shows a running pause with the way to end it', () => {
    const now = Date.UTC(2026, 10, 30, 12);
    const v = trayModel(snap([], { now, notificationsPausedUntil: now + 3_600_000 }));
    const item = v.menu.find((i) => i.label?.startsWith('Notifications paused until'));
    expect(item?.action).toEqual({ kind: 'pause-notifications', for: 'resume' });
    expect(trayModel(snap([], { now, notificationsPausedUntil: now - 1 })).menu.some((i) => i.label === 'Pause notifications')).toBe(true);
  });
});
