// Feeds Electron's powerMonitor into the supervisor's PowerWatch (DESIGN.md §8): `suspend` and
// `resume` become reports from the `powerMonitor` source (PowerWatch dedupes them against its drift
// detector), and a resume or an unlock also hints the network probe, since a wake usually comes
// with a new network. Electron main process. Takes the Electron objects as parameters so it is
// tested with stand-ins.
import type { PowerMonitor } from 'electron';
import type { PowerWatch } from '../power/power-watch.js';

/** The part of Electron's powerMonitor this adapter uses. */
export type PowerMonitorLike = Pick<PowerMonitor, 'on' | 'removeListener'>;

/** Starts forwarding; returns a function that stops it. */
export function adaptPowerMonitor(powerMonitor: PowerMonitorLike, watch: Pick<PowerWatch, 'feed' | 'hint'>): () => void {
  const onSuspend = (): void => watch.feed({ type: 'suspend', source: 'powerMonitor' });
  const onResume = (): void => {
    watch.feed({ type: 'resume', source: 'powerMonitor' });
    watch.hint();
  };
  const onUnlock = (): void => watch.hint();
  powerMonitor.on('suspend', onSuspend);
  powerMonitor.on('resume', onResume);
  powerMonitor.on('unlock-screen', onUnlock);
  return () => {
    powerMonitor.removeListener('suspend', onSuspend);
    powerMonitor.removeListener('resume', onResume);
    powerMonitor.removeListener('unlock-screen', onUnlock);
  };
}
