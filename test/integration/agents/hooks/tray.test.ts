// A hook's needs-input in the tray (DESIGN.md §4 "Hooks", §13): the desktop app's main process in
// Node against the fake `electron` module, with its own real daemon that reads no screen
// (MORI_TEST_HOOKS_ONLY), and the fake agent running Mori's hook commands (the real report script)
// as Claude Code does. From the agent's PermissionRequest hook call to the tray's menu set again with
// the session's row saying needs input and the needs-you icon: within 1 s.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('electron', () => import('../../../support/fakes/electron.js'));
import { endTestApp, lastTray, resetElectronFakes, startTestApp, type TestApp } from '../../../support/electron-app.js';
import { runMoriAsync } from '../../../../testkit/mori-cli.js';
import { UpHarness } from '../../../support/mori-up.js';
import { until } from '../../../../testkit/until.js';
import { fakeHookCalledAt } from '../../../support/hook-calls.js';

/** The promise: a hook's needs-input shows within a second of the hook call. */
const HOOK_TO_TRAY_MS = 1_000;
/** The tray is looked at this often while the hook's word travels: the figure is at most this late. */
const LOOK_MS = 5;

let h: UpHarness;
let t: TestApp | null = null;
beforeEach(resetElectronFakes);
afterEach(async () => {
  await endTestApp(t, h);
  t = null;
});

const tray = lastTray;
const menuLabels = (): string[] => (tray().menu?.items ?? []).map((i) => String(i.label ?? ''));
const icon = (): string => (tray().image as unknown as { path: string }).path;

/** When the fake agent called its hook `name` (epoch ms), once it has. */
const hookCalledAt = (name: string): number | null => fakeHookCalledAt(h.record, name);

describe("a hook's needs-input in the tray", () => {
  it('shows in the tray within a second of the PermissionRequest hook call, with the screen not read', { timeout: 90_000 }, async () => {
    h = new UpHarness('hooks-tray', { MORI_TEST_HOOKS_ONLY: '1' });
    h.init('hk', 'direct');
    t = await startTestApp(h);
    // The first turn's Stop hook leaves it waiting, by the hook alone.
    await until('hk waiting in the tray', () => menuLabels().includes('hk — waiting'), () => menuLabels().join(' | '));
    const setsBefore = tray().menuSets;

    // Typed without blocking this process's event loop, which the app's tray runs on.
    const sent = runMoriAsync(['send', 'hk', 'ask'], { home: h.home, cwd: h.project, env: h.env });
    let shownAt: number | null = null;
    const end = Date.now() + 25_000;
    while (shownAt === null && Date.now() < end) {
      if (menuLabels().includes('hk — needs input')) shownAt = Date.now();
      else await new Promise((r) => setTimeout(r, LOOK_MS));
    }
    const r = await sent;
    expect(r.code, r.stderr).toBe(0);
    expect(shownAt, `the tray never said needs input: ${menuLabels().join(' | ')}`).not.toBeNull();
    // The agent records its hook call once the hook returned, which may be after the tray changed.
    await until('the PermissionRequest hook recorded', () => hookCalledAt('PermissionRequest') !== null);
    const calledAt = hookCalledAt('PermissionRequest');
    const latency = (shownAt as number) - (calledAt as number);
    console.log(`hook call → tray needs input: ${latency} ms`);
    expect(latency).toBeGreaterThanOrEqual(0);
    expect(latency).toBeLessThanOrEqual(HOOK_TO_TRAY_MS);
    expect(menuLabels()[0]).toBe('hk — needs input');
    expect(icon()).toMatch(/needs-you\.png$/);
    expect(tray().menuSets).toBeGreaterThan(setsBefore);
  });
});
