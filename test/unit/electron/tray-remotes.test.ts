// Remote sessions in the tray and the notifications (main/electron/tray-model.ts, app-state.ts's
// remoteRow, notification-decider.ts): each remote's sessions come after the local ones under the
// host's name as `host:session` rows, acted on through the host's daemon; the icon and the tooltip count every machine that answers; an
// unreachable or connecting remote is one quiet line that adds nothing to the icon; a remote
// session's notification names the host, once, and a first listing's conditions are taken as told.
import { describe, expect, it } from 'vitest';
import { row } from '../../support/session-rows.js';
import type { WatchedSession } from '../../../common/session-view.js';
import { remoteRow } from '../../../main/electron/app-state.js';
import { decideNotifications, emptyMemory, type DecideInput } from '../../../common/notification-decider.js';
import { trayModel, type TrayItem, type TraySnapshot } from '../../../main/electron/tray-model.js';
import type { RemoteStatus, RemoteView } from '../../../main/remote/remote-link.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const snap = (sessions: WatchedSession[], remotes: RemoteView[], over: Partial<TraySnapshot> = {}): TraySnapshot => ({
  daemon: { state: 'open', detail: '' },
  sessions,
  remotes,
  notificationsPausedUntil: null,
  startAtLogin: false,
  muted: new Set(),
  now: NOW,
  ...over,
});
const host = (name: string, status: RemoteStatus, sessions: WatchedSession[] = [], message: string | null = null): RemoteView => ({
  name,
  destination: `me@${name}`,
  status,
  message,
  sessions: sessions.map((r) => remoteRow(name, r)),
});
const labels = (items: TrayItem[]): string[] => items.filter((i) => i.label).map((i) => i.label ?? '');

describe('the tray with remotes', () => {
  it('lists each remote\'s sessions under its name after the local ones, needing-you first within a host', () => {
    const v = trayModel(snap([row('here')], [host('box', 'ok', [row('work'), row('tests', { activity: 'needs-input' })]), host('lab', 'ok', [row('train', { activity: 'working' })])]));
    expect(labels(v.menu).slice(0, 6)).toEqual(['here — waiting', 'box', 'box:tests — needs input', 'box:work — waiting', 'lab', 'lab:train — working']);
    expect(v.menu.find((i) => i.label === 'box')).toMatchObject({ enabled: false });
    const work = v.menu.find((i) => i.label === 'box:work — waiting');
    expect(labels(work?.submenu ?? [])).toEqual(['Open', 'Verify now', 'Stop', 'mori attach box:work', 'Mute notifications']);
    expect(work?.submenu?.[4]?.action).toEqual({ kind: 'toggle-mute', session: 'box:id-work' });
    // Open shows it in the window, which names it as the tray does.
    expect(work?.submenu?.[0]?.action).toEqual({ kind: 'open-window', session: 'box:id-work' });
    expect(labels(v.menu)).toContain('New session…');
  });

  it("acts on a remote session through its host: the action names the host and the id that host's daemon gave it", () => {
    const action = (r: WatchedSession, label: string) => {
      const item = trayModel(snap([], [host('box', 'ok', [r])])).menu.find((i) => i.label?.startsWith('box:'));
      return item?.submenu?.find((i) => i.label === label)?.action;
    };
    expect(action(row('work'), 'Verify now')).toEqual({ kind: 'verify', session: 'id-work', remote: 'box' });
    expect(action(row('work'), 'Stop')).toEqual({ kind: 'stop', session: 'id-work', remote: 'box' });
    expect(action(row('work', { state: 'stopped' }), 'Resume')).toEqual({ kind: 'start', session: 'id-work', remote: 'box' });
    expect(action(row('work', { state: 'idle' }), 'Start')).toEqual({ kind: 'start', session: 'id-work', remote: 'box' });
    const limited = row('work', { state: 'limited' });
    expect(action(limited, 'Resume now')).toEqual({ kind: 'resume-now', session: 'id-work', remote: 'box' });
    expect(action(limited, "Don't resume")).toEqual({ kind: 'dont-resume', session: 'id-work', remote: 'box' });
    // A local session's actions name no host.
    const local = trayModel(snap([row('here')], [])).menu[0]?.submenu?.find((i) => i.label === 'Stop')?.action;
    expect(local).toEqual({ kind: 'stop', session: 'id-here' });
  });

  it('shows the worst state across machines in the icon and counts every answering machine in the tooltip', () => {
    expect(trayModel(snap([row('here')], [host('box', 'ok', [row('work', { activity: 'needs-input' })])])).icon).toBe('needs-you');
    const loop = row('work', { state: 'attention', intent: { kind: 'attention', reason: 'crash-loop' } });
    const v = trayModel(snap([row('here', { activity: 'needs-input' })], [host('box', 'ok', [loop])]));
    expect(v.icon).toBe('failing');
    expect(v.tooltip).toBe('Mori — 1 failing, 1 needs you');
    expect(trayModel(snap([], [host('box', 'ok', [row('work', { activity: 'working' })])])).tooltip).toBe('Mori — 1 working');
    // The local daemon is what the app stands on: without it the icon says so, whatever the remotes say.
    expect(trayModel(snap([], [host('box', 'ok', [loop])], { daemon: { state: 'closed', detail: '' } })).icon).toBe('offline');
  });

  it('shows an unreachable, connecting or other-version remote as one quiet line, its last sessions out of the icon', () => {
    const lost = host('box', 'unreachable', [row('work', { activity: 'needs-input' })], 'box (me@box) cannot be reached through ssh: Connection refused');
    const v = trayModel(snap([row('here')], [lost, host('lab', 'connecting'), host('old', 'other-version', [], 'old: update Mori on old'), host('empty', 'ok')]));
    expect(v.icon).toBe('ok');
    expect(v.tooltip).toBe('Mori — 1 ok');
    expect(labels(v.menu).slice(0, 5)).toEqual(['here — waiting', 'box — unreachable', 'lab — connecting…', 'old — another Mori version', 'empty — no sessions']);
    expect(labels(v.menu).some((l) => l.startsWith('box:'))).toBe(false);
    const box = v.menu.find((i) => i.label === 'box — unreachable');
    expect(box?.submenu).toEqual([{ label: 'box (me@box) cannot be reached through ssh: Connection refused', enabled: false }]);
    expect(box?.action).toBeUndefined();
    expect(v.menu.find((i) => i.label === 'lab — connecting…')).toMatchObject({ enabled: false });
  });

  it('has no remote section without remotes', () => {
    expect(labels(trayModel(snap([row('here')], [])).menu).slice(0, 2)).toEqual(['here — waiting', 'New session…']);
  });
});

describe('notifications for remote sessions', () => {
  const input = (rows: WatchedSession[], over: Partial<DecideInput> = {}): DecideInput => ({ rows, events: [], now: NOW, focusedSession: null, muted: new Set(), pausedUntil: null, ...over });

  it('names the host, tells a transition once, and takes a first listing\'s conditions as told', () => {
    const waiting = remoteRow('box', row('work'));
    const asks = remoteRow('box', row('work', { activity: 'needs-input' }));
    let r = decideNotifications(emptyMemory(), input([waiting]));
    r = decideNotifications(r.memory, input([asks]));
    expect(r.notices.map((n) => [n.title, n.session])).toEqual([['box:work needs input', 'box:id-work']]);
    // Listed again after a reconnect, unchanged: no news.
    r = decideNotifications(r.memory, input([asks]));
    expect(r.notices).toEqual([]);

    // A remote first listed with a session already asking: told nothing, and remembered as told.
    const other = remoteRow('lab', row('train', { activity: 'needs-input' }));
    r = decideNotifications(r.memory, input([asks, other], { quiet: new Set([other.info.id]) }));
    expect(r.notices).toEqual([]);
    r = decideNotifications(r.memory, input([asks, other]));
    expect(r.notices).toEqual([]);
  });

  it('keeps a local and a remote session of the same name apart', () => {
    const local = row('work');
    const remote = remoteRow('box', row('work'));
    let r = decideNotifications(emptyMemory(), input([local, remote]));
    r = decideNotifications(r.memory, input([local, remoteRow('box', row('work', { activity: 'needs-input' }))], { muted: new Set(['id-work']) }));
    expect(r.notices.map((n) => n.title)).toEqual(['box:work needs input']);
  });
});
