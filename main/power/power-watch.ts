// PowerWatch: the one object the supervisor owns for sleep/wake and the network. Wires the drift
// detector into PowerEvents, pauses the network probes across a sleep and re-probes on wake, and
// re-emits everything under the supervisor's event names (DESIGN.md §9). Electron adapters feed it
// through `feed` and `hint`. Main process (and `mori up`).
import type { NetworkStatus, PowerEventMap, ProbeTarget } from '../../common/power.js';
import type { ProfileName } from '../../common/session.js';
import { systemClock, systemScheduler, type PowerClock, type Scheduler } from './clock.js';
import { DriftDetector, type DriftConfig } from './drift-detector.js';
import { Listeners, type ListenerErrorReporter, type Unsubscribe } from './listeners.js';
import type { NetworkConfig } from './network-state.js';
import { PowerEvents, type PowerConfig, type PowerFeed } from './power-events.js';
import { probeTargetsFor } from './probe-targets.js';
import { Reachability } from './reachability.js';
import type { Probe } from './tcp-probe.js';

export interface PowerWatchOptions {
  /** Agents whose API hosts are probed (overridden by MORI_PROBE); default none, see setProfiles. */
  profiles?: Iterable<ProfileName>;
  /** Explicit targets instead of those of `profiles`. */
  targets?: readonly ProbeTarget[];
  /** Where MORI_PROBE and the proxy variables are read; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  clock?: PowerClock;
  scheduler?: Scheduler;
  probe?: Probe;
  drift?: Partial<DriftConfig>;
  power?: Partial<PowerConfig>;
  network?: Partial<NetworkConfig>;
  onListenerError?: ListenerErrorReporter;
}

export interface PowerWatch {
  /** Subscribes to `power.suspend`, `power.resume`, `network.offline`, `network.online`. */
  on<K extends keyof PowerEventMap>(type: K, fn: (event: PowerEventMap[K]) => void): Unsubscribe;
  /** A raw suspend/resume report from an adapter (Electron's powerMonitor) or a test. */
  feed(report: PowerFeed): void;
  /** A hint that the network may have changed: probe now. */
  hint(): void;
  /** The active agents changed: probe their API hosts (unless MORI_PROBE overrides). */
  setProfiles(profiles: Iterable<ProfileName>): void;
  /** Probe exactly these targets. */
  setTargets(targets: readonly ProbeTarget[]): void;
  /** Resolves true once online (at once if online or nothing needs the network), false after timeoutMs. */
  waitForOnline(timeoutMs: number): Promise<boolean>;
  readonly network: NetworkStatus;
  readonly asleep: boolean;
  /** Stops every timer, probe and listener; nothing of this keeps the process alive afterwards. */
  dispose(): void;
}

/** Throws when MORI_PROBE is malformed: it is set by tests, and a typo must not pass as "offline". */
function targetsOf(profiles: Iterable<ProfileName>, env: Readonly<Record<string, string | undefined>>): ProbeTarget[] {
  const r = probeTargetsFor(profiles, env);
  if (!r.ok) throw new Error(`MORI_PROBE: ${r.message}`);
  return r.value;
}

/** Creates the watch and starts it: the drift detector ticks and the first probe round runs at once. */
export function createPowerWatch(options: PowerWatchOptions = {}): PowerWatch {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const scheduler = options.scheduler ?? systemScheduler;
  const out = new Listeners<PowerEventMap>(options.onListenerError);
  const power = new PowerEvents({ clock, ...(options.power ? { config: options.power } : {}), ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}) });
  const reachability = new Reachability({
    targets: options.targets ?? targetsOf(options.profiles ?? [], env),
    clock,
    scheduler,
    ...(options.probe ? { probe: options.probe } : {}),
    ...(options.network ? { config: options.network } : {}),
    ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
  });
  const drift = new DriftDetector({
    clock,
    scheduler,
    ...(options.drift ? { config: options.drift } : {}),
    onGap: (gap) => {
      power.feed({ type: 'suspend', source: 'drift', at: gap.suspendAt });
      power.feed({ type: 'resume', source: 'drift', at: gap.resumeAt, sleptMs: gap.sleptMs });
    },
    onTick: (sample) => power.alive(sample.wallMs),
  });

  // The network is set straight before listeners hear of a sleep or wake, so a resume handler that
  // calls waitForOnline sees a fresh probe, not the state from before the sleep.
  power.on('suspend', (event) => {
    reachability.pause();
    out.emit('power.suspend', event);
  });
  power.on('resume', (event) => {
    reachability.wake();
    out.emit('power.resume', event);
  });
  reachability.on('offline', (event) => out.emit('network.offline', event));
  reachability.on('online', (event) => out.emit('network.online', event));

  let disposed = false;
  drift.start();
  reachability.start();

  return {
    on: (type, fn) => out.on(type, fn),
    feed: (report) => {
      if (!disposed) power.feed(report);
    },
    hint: () => reachability.hint(),
    setProfiles: (profiles) => {
      if (!disposed) reachability.setTargets(targetsOf(profiles, env));
    },
    setTargets: (targets) => {
      if (!disposed) reachability.setTargets(targets);
    },
    waitForOnline: (timeoutMs) => reachability.waitForOnline(timeoutMs),
    get network() {
      return reachability.status;
    },
    get asleep() {
      return power.asleep;
    },
    dispose: () => {
      disposed = true;
      drift.stop();
      reachability.stop();
      power.clear();
      out.clear();
    },
  };
}
