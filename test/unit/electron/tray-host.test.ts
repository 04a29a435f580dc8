// Whether this desktop shows tray icons: only a clear "no StatusNotifierWatcher" from the session bus
// means no tray; a bus that cannot be asked leaves the tray as it is; macOS and Windows always have one.
import { describe, expect, it } from 'vitest';
import { linuxTrayHost, trayHost, type Run } from '../../../main/electron/tray-host.js';

const answering = (out: string | null): { run: Run; calls: string[][] } => {
  const calls: string[][] = [];
  return { calls, run: (file, args) => (calls.push([file, ...args]), Promise.resolve(out)) };
};

describe('tray host', () => {
  it('no watcher on the session bus: no tray, and says why', async () => {
    const { run, calls } = answering('   boolean false\n');
    const host = await linuxTrayHost(run);
    expect(host).toMatchObject({ shown: false });
    expect(host.shown ? '' : host.why).toMatch(/StatusNotifierWatcher/);
    expect(calls[0]).toContain('string:org.kde.StatusNotifierWatcher');
  });

  it('a watcher, or a bus that cannot be asked: the tray is shown', async () => {
    expect(await linuxTrayHost(answering('   boolean true\n').run)).toEqual({ shown: true });
    expect(await linuxTrayHost(answering(null).run)).toEqual({ shown: true });
  });

  it('asks the bus on Linux only', async () => {
    const { run, calls } = answering('   boolean false\n');
    expect(await trayHost('darwin', run)).toEqual({ shown: true });
    expect(await trayHost('win32', run)).toEqual({ shown: true });
    expect(calls).toHaveLength(0);
  });
});
