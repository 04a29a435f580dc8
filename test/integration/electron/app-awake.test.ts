// The desktop app holds sleep too while the daemon keeps the machine awake (main/electron/
// app-awake-blocker.ts), in Node against the fake `electron` module with a real daemon, the fake
// agent and a stand-in `systemd-inhibit` first on PATH (these machines have no logind): Electron's
// powerSaveBlocker is started once, as prevent-app-suspension, while the agent works, stopped when
// the work ends, and none is left after quitting. On Windows this is the only hold there is.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('electron', () => import('../../support/fakes/electron.js'));
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fake } from '../../support/fakes/electron.js';
import { endTestApp, lastTray, resetElectronFakes, startTestApp, type TestApp } from '../../support/electron-app.js';
import { UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness;
let t: TestApp | null = null;
beforeEach(resetElectronFakes);
afterEach(async () => {
  await endTestApp(t, h);
  t = null;
});

const blocks = (): string[] => [...fake.sleepBlocks.values()];

describe('the desktop app keeps the machine awake with the daemon', () => {
  it('holds prevent-app-suspension while the agent works, lets go when it ends and at quit', { timeout: 120_000 }, async () => {
    h = new UpHarness('app-awake');
    const bin = path.join(h.tmp, 'bin');
    mkdirSync(bin);
    // Lives as long as the command it holds the lock for, as the real one does.
    writeFileSync(path.join(bin, 'systemd-inhibit'), '#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in --*) shift;; *) break;; esac; done\nexec "$@"\n');
    chmodSync(path.join(bin, 'systemd-inhibit'), 0o755);
    h.env['PATH'] = `${bin}:${process.env['PATH'] ?? ''}`;
    mkdirSync(h.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(h.home, 'settings.json'), JSON.stringify({ keepAwake: { enabled: true, graceMinutes: 0 } }));
    h.init('alpha', 'direct');
    t = await startTestApp(h);
    const labels = (): string => (lastTray().menu?.items ?? []).map((i) => String(i.label ?? '')).join(' | ');
    await until('alpha waiting', () => labels().includes('alpha — waiting'), labels);
    await until('no hold while it waits', () => blocks().length === 0, () => blocks().join());

    expect(h.mori('send', 'alpha', 'work:6000').code).toBe(0);
    await until('the app holds', () => blocks().length === 1, () => lastTray().tooltip);
    expect(blocks()).toEqual(['prevent-app-suspension']);
    expect(lastTray().tooltip).toContain('keeping the machine awake (1 working)');
    await until('the app lets go once the work ended', () => blocks().length === 0, () => lastTray().tooltip, 30_000);

    expect(h.mori('send', 'alpha', 'work:60000').code).toBe(0);
    await until('held again', () => blocks().length === 1, () => lastTray().tooltip);
    await t.app.act({ kind: 'quit' });
    t = null;
    expect(blocks()).toEqual([]);
  });
});
