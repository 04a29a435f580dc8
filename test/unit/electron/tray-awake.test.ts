// The tray tooltip's keep-awake line (main/electron/tray-awake.ts, tray-model.ts): said while the
// daemon holds, from its keep-awake events, asked again when a daemon is ready; nothing while it does
// not hold; a failed read keeps what was known.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../common/ipc.js';
import { fail, ok } from '../../../common/result.js';
import { TrayAwake } from '../../../main/electron/tray-awake.js';
import { trayModel, type TraySnapshot } from '../../../main/electron/tray-model.js';
import { row } from '../../support/session-rows.js';

const snap = (over: Partial<TraySnapshot> = {}): TraySnapshot => ({ daemon: { state: 'open', detail: '' }, sessions: [row('a')], notificationsPausedUntil: null, startAtLogin: false, muted: new Set(), now: 0, ...over });
const event = (holding: boolean, working: number): DaemonEvent => ({ type: 'keep-awake', at: 0, holding, working }) as DaemonEvent;

describe('the tray says when the machine is kept awake', () => {
  it('adds the line to the tooltip only while the daemon holds', () => {
    expect(trayModel(snap({ awake: { holding: true, working: 2 } })).tooltip).toBe('Mori — 1 ok\nkeeping the machine awake (2 working)');
    expect(trayModel(snap({ awake: { holding: false, working: 0 } })).tooltip).toBe('Mori — 1 ok');
    expect(trayModel(snap({ awake: null })).tooltip).toBe('Mori — 1 ok');
  });

  it('follows the events, asks when a daemon is ready, and keeps what it knew when the read fails', async () => {
    let answer = ok({ enabled: true, holding: true, working: 3, releaseAt: null });
    let changes = 0;
    const awake = new TrayAwake(() => Promise.resolve(answer), () => changes++);
    awake.heard([event(true, 1)]);
    expect(awake.now()).toEqual({ holding: true, working: 1 });
    awake.heard([event(true, 1)]);
    expect(changes).toBe(1);
    awake.heard([{ type: 'supervisor.ready', at: 0, sessions: 1, pid: 2 } as DaemonEvent]);
    await new Promise((r) => setTimeout(r, 0));
    expect(awake.now()).toEqual({ holding: true, working: 3 });
    answer = fail('failed', 'gone') as never;
    await awake.refresh();
    expect(awake.now()).toEqual({ holding: true, working: 3 });
    awake.heard([event(false, 0)]);
    expect(awake.now()).toEqual({ holding: false, working: 0 });
    expect(changes).toBe(3);
  });
});
