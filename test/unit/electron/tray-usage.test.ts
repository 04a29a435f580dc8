// The tray tooltip's usage line (main/electron/tray-usage.ts, tray-model.ts, tray-controller.ts):
// today's tokens and cost summed over the sessions (each one's own "today"), said under the counts;
// read again only after an event that may change it, one read at a time, the tray told only when the
// figures changed. The controller takes a fake tray.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../common/ipc.js';
import { ok } from '../../../common/result.js';
import { emptyTotals, type SessionUsage } from '../../../common/usage.js';
import { TrayController, type TrayFactory } from '../../../main/electron/tray-controller.js';
import { trayModel, type TraySnapshot } from '../../../main/electron/tray-model.js';
import { TrayUsage, usageToday } from '../../../main/electron/tray-usage.js';
import { row } from '../../support/session-rows.js';

const dayOf = (day: string, input: number, cost: number, unpriced = 0) => ({ ...emptyTotals(), day, input, requests: 2, cost, unpriced });
const session = (id: string, today: string, days: ReturnType<typeof dayOf>[]): SessionUsage =>
  ({ id, name: id, profile: 'claude', problem: null, days, total: emptyTotals(), last: null, today, priceTable: 't 1', partial: false }) as SessionUsage;

const snap = (over: Partial<TraySnapshot> = {}): TraySnapshot => ({ daemon: { state: 'open', detail: '' }, sessions: [row('a')], notificationsPausedUntil: null, startAtLogin: false, muted: new Set(), now: 0, ...over });

describe('tray usage', () => {
  it("sums each session's today, and none without a request today", () => {
    const list = [session('a', '2026-12-06', [dayOf('2026-12-05', 9_000, 1), dayOf('2026-12-06', 20_000, 0.05)]), session('b', '2026-12-06', [dayOf('2026-12-06', 4_600, 0.03, 1)])];
    expect(usageToday(list)).toEqual({ tokens: 24_600, requests: 4, cost: 0.08, unpriced: 1 });
    expect(usageToday([session('a', '2026-12-07', [dayOf('2026-12-06', 1, 1)])])).toBeNull();
  });

  it('says today under the counts in the tooltip, and nothing while none was read or the daemon is away', () => {
    const today = { tokens: 24_600, requests: 4, cost: 0.0787, unpriced: 0 };
    expect(trayModel(snap({ usageToday: today })).tooltip).toBe('Mori — 1 ok\ntoday: 24.6k tokens, $0.0787');
    expect(trayModel(snap({ usageToday: { ...today, unpriced: 1 } })).tooltip).toBe('Mori — 1 ok\ntoday: 24.6k tokens, $0.0787 + 1 request with no price');
    expect(trayModel(snap({ usageToday: null })).tooltip).toBe('Mori — 1 ok');
    expect(trayModel(snap({ usageToday: today, daemon: { state: 'closed', detail: '' } })).tooltip).not.toMatch(/today/);
    const tooltips: string[] = [];
    const factory: TrayFactory = {
      tray: () => ({ setImage: () => undefined, setToolTip: (t) => tooltips.push(t), setContextMenu: () => undefined, destroy: () => undefined }),
      image: () => ({}) as Electron.NativeImage,
      menu: () => ({}) as Electron.Menu,
    };
    new TrayController(factory, '/icons', () => undefined, 'linux').render(snap({ usageToday: today }));
    expect(tooltips).toEqual(['Mori — 1 ok\ntoday: 24.6k tokens, $0.0787']);
  });

  it('reads after an event that may change the figures, one read at a time, and tells the tray only of a change', async () => {
    const answers: ((v: SessionUsage[]) => void)[] = [];
    let changes = 0;
    const usage = new TrayUsage(
      () => new Promise((resolve) => answers.push((v) => resolve(ok(v)))),
      () => void changes++,
    );
    const ev = (e: Record<string, unknown>): DaemonEvent => e as unknown as DaemonEvent;
    usage.heard([ev({ type: 'session.activity', sessionId: 'a', from: 'waiting', to: 'working' }), ev({ type: 'log.appended', sessionId: 'a' })]);
    expect(answers).toHaveLength(0);
    const first = usage.refresh();
    usage.heard([ev({ type: 'session.activity', sessionId: 'a', from: 'working', to: 'waiting' })]);
    usage.heard([ev({ type: 'session.exited', sessionId: 'a' })]);
    expect(answers).toHaveLength(1);
    answers[0]?.([session('a', 'd', [dayOf('d', 100, 0.01)])]);
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toHaveLength(2);
    answers[1]?.([session('a', 'd', [dayOf('d', 100, 0.01)])]);
    await first;
    expect(changes).toBe(1);
    expect(usage.today()).toEqual({ tokens: 100, requests: 2, cost: 0.01, unpriced: 0 });
  });
});
