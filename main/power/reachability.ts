// Network reachability monitor: probes its targets on a schedule (slow while online, fast while
// offline or confirming a change), at once on a hint, and announces `offline` / `online` as decided
// by network-state.ts. The shell around sockets and timers; both are injectable. Main process.
import type { NetworkOfflineEvent, NetworkOnlineEvent, NetworkStatus, ProbeTarget } from '../../common/power.js';
import { systemClock, systemScheduler, type Cancel, type PowerClock, type Scheduler } from './clock.js';
import { Listeners, type ListenerErrorReporter, type Unsubscribe } from './listeners.js';
import { afterWake, decideProbe, DEFAULT_NETWORK_CONFIG, initialNetworkState, nextProbeDelayMs, type NetworkConfig, type NetworkState } from './network-state.js';
import { describeFailures, probeAny, type Probe } from './tcp-probe.js';
import { background } from '../background.js';

export interface ReachabilityEventMap {
  offline: NetworkOfflineEvent;
  online: NetworkOnlineEvent;
}

export interface ReachabilityOptions {
  targets: readonly ProbeTarget[];
  probe?: Probe;
  clock?: PowerClock;
  scheduler?: Scheduler;
  config?: Partial<NetworkConfig>;
  onListenerError?: ListenerErrorReporter;
}

export class Reachability {
  private state: NetworkState = initialNetworkState();
  private targets: readonly ProbeTarget[];
  private readonly probe: Probe;
  private readonly clock: PowerClock;
  private readonly scheduler: Scheduler;
  private readonly config: NetworkConfig;
  private readonly listeners: Listeners<ReachabilityEventMap>;
  private running = false;
  private paused = false;
  private timer: Cancel | null = null;
  private inFlight: AbortController | null = null;
  /** A hint arrived while a probe was in flight: probe again as soon as it ends. */
  private again = false;
  private readonly waiters = new Set<(online: boolean) => void>();

  constructor(options: ReachabilityOptions) {
    this.targets = [...options.targets];
    this.probe = options.probe ?? probeAny;
    this.clock = options.clock ?? systemClock;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.config = { ...DEFAULT_NETWORK_CONFIG, ...options.config };
    this.listeners = new Listeners(options.onListenerError);
  }

  get status(): NetworkStatus {
    return this.state.status;
  }

  on<K extends keyof ReachabilityEventMap>(type: K, fn: (event: ReachabilityEventMap[K]) => void): Unsubscribe {
    return this.listeners.on(type, fn);
  }

  /** Starts probing, the first round at once. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.paused = false;
    this.probeNow();
  }

  /** Stops all timers and cancels the probe in flight; pending waitForOnline calls resolve false. */
  stop(): void {
    this.running = false;
    this.halt();
    for (const resolve of [...this.waiters]) resolve(false);
  }

  /** The machine is going to sleep: stop probing (results now would only be noise) until `wake`. */
  pause(): void {
    if (!this.running) return;
    this.paused = true;
    this.halt();
  }

  /** The machine woke: what we knew is stale, so the status is unknown again and a probe runs at once. */
  wake(): void {
    if (!this.running) return;
    this.paused = false;
    this.halt();
    this.state = afterWake(this.state);
    this.probeNow();
  }

  /** Something suggests the network changed (Electron's online/offline, the renderer): probe now. */
  hint(): void {
    if (!this.running || this.paused) return;
    if (this.inFlight) this.again = true;
    else this.probeNow();
  }

  /** Replaces the targets (the set of active agents changed) and probes them at once. */
  setTargets(targets: readonly ProbeTarget[]): void {
    this.targets = [...targets];
    if (!this.running || this.paused) return;
    this.halt();
    this.probeNow();
  }

  /**
   * Resolves true once the network is online (at once if it is, or if no target needs checking),
   * false after `timeoutMs`. Probes at once if the status is not online. For the wake path.
   */
  waitForOnline(timeoutMs: number): Promise<boolean> {
    if (this.state.status === 'online' || this.targets.length === 0) return Promise.resolve(true);
    if (!this.running) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (online: boolean): void => {
        this.waiters.delete(done);
        cancel();
        resolve(online);
      };
      this.waiters.add(done);
      // Kept alive: the caller awaits this and is owed an answer.
      const cancel = this.scheduler.after(timeoutMs, () => done(false), true);
      if (!this.paused) this.hint();
    });
  }

  private halt(): void {
    this.timer?.();
    this.timer = null;
    this.inFlight?.abort();
    this.inFlight = null;
    this.again = false;
  }

  private schedule(): void {
    this.timer?.();
    this.timer = this.scheduler.after(nextProbeDelayMs(this.state, this.config), () => {
      this.timer = null;
      this.probeNow();
    });
  }

  private probeNow(): void {
    this.timer?.();
    this.timer = null;
    // Nothing to probe: no active agent needs the network. setTargets starts probing again.
    if (this.targets.length === 0) return;
    const controller = new AbortController();
    this.inFlight = controller;
    this.again = false;
    const round = this.probe(this.targets, { timeoutMs: this.config.probeTimeoutMs, signal: controller.signal })
      .catch((error: unknown) => ({ ok: false, results: [], error }))
      .then((outcome) => {
        // Stopped, paused, woken or retargeted meanwhile: this round no longer counts.
        if (this.inFlight !== controller) return;
        this.inFlight = null;
        const detail = 'error' in outcome ? `probe failed: ${String(outcome.error)}` : describeFailures(outcome.results);
        this.apply({ ok: outcome.ok, at: this.clock.wallMs(), detail });
        if (!this.running || this.paused || this.inFlight) return; // a listener may have acted
        if (this.again) this.probeNow();
        else if (!this.timer) this.schedule();
      });
    background(round, 'network reachability probe');
  }

  private apply(result: { ok: boolean; at: number; detail: string }): void {
    const { state, event } = decideProbe(this.state, result, this.config);
    this.state = state;
    if (event?.type === 'offline') this.listeners.emit('offline', event.event);
    if (event?.type === 'online') this.listeners.emit('online', event.event);
    if (this.state.status === 'online') for (const resolve of [...this.waiters]) resolve(true);
  }
}
