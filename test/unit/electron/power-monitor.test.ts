// The powerMonitor adapter with a stand-in for Electron's powerMonitor (an EventEmitter, which is
// what the real one is) feeding a real PowerWatch: one suspend/resume pair per sleep, even when the
// drift detector reports the same sleep too.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { adaptPowerMonitor, type PowerMonitorLike } from '../../../main/electron/power-monitor-adapter.js';
import { createPowerWatch, type PowerWatch } from '../../../main/power/power-watch.js';

let watch: PowerWatch | null = null;
afterEach(() => watch?.dispose());

describe('powerMonitor adapter', () => {
  it('turns suspend and resume into one pair, deduped against the drift detector, and stops on dispose', () => {
    watch = createPowerWatch({ env: { MORI_PROBE: 'none' } });
    const seen: string[] = [];
    watch.on('power.suspend', (e) => seen.push(`suspend:${e.source}`));
    watch.on('power.resume', (e) => seen.push(`resume:${e.source}`));
    const pm = new EventEmitter();
    const stop = adaptPowerMonitor(pm as unknown as PowerMonitorLike, watch);
    pm.emit('suspend');
    watch.feed({ type: 'suspend', source: 'drift' });
    pm.emit('resume');
    watch.feed({ type: 'resume', source: 'drift', sleptMs: 1000 });
    expect(seen).toEqual(['suspend:powerMonitor', 'resume:powerMonitor']);
    stop();
    expect(pm.listenerCount('suspend') + pm.listenerCount('resume') + pm.listenerCount('unlock-screen')).toBe(0);
  });
});
