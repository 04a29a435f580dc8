// PowerEvents: the one source of `suspend` / `resume` for the supervisor (DESIGN.md §8). Fed by the
// drift detector (always) and by adapters such as Electron's powerMonitor (main/electron/ calls
// `feed`). Raw reports are doubled, late, or come as a resume without a suspend; this collapses them
// to one suspend/resume pair per actual sleep. Main process (and `mori up`).
//
// The decision (`reducePower`) is pure; `PowerEvents` is the thin shell holding state and listeners.
import type { PowerSource, ResumeEvent, SuspendEvent } from '../../common/power.js';
import { systemClock, type PowerClock } from './clock.js';
import { Listeners, type ListenerErrorReporter, type Unsubscribe } from './listeners.js';

/** A raw report, as a source saw it. `sleptMs` is known to the drift detector, not to powerMonitor. */
export type PowerInput =
  | { type: 'suspend'; at: number; source: PowerSource }
  | { type: 'resume'; at: number; sleptMs?: number; source: PowerSource }
  /** A heartbeat: the drift detector ticked on time at `at`, so the machine is awake. */
  | { type: 'alive'; at: number };

/** One deduplicated event to emit. */
export type PowerOutput = { type: 'suspend'; event: SuspendEvent } | { type: 'resume'; event: ResumeEvent };

export interface PowerState {
  /** The suspend emitted and not yet resumed, or null while awake. */
  asleep: SuspendEvent | null;
  /** When the last emitted resume happened; reports of a sleep that ended by then are late. */
  lastResumeAt: number | null;
  /** The drift detector's last on-time tick: the latest moment the machine is known to have been awake. */
  lastAliveAt: number | null;
}

export interface PowerConfig {
  lateResumeWindowMs: number;
  abortedSuspendMs: number;
}

/**
 * A resume of unknown length that arrives this soon after the last emitted resume, with no suspend
 * between, is a late echo of the same wake: powerMonitor's `resume` can reach us seconds after the
 * drift detector already saw the wake (and the other way round), and a real sleep shorter than this
 * with no suspend notice at all is below what the supervisor acts on anyway.
 */
export const LATE_RESUME_WINDOW_MS = 30_000;

/**
 * A suspend notice followed by a minute of on-time ticks means the sleep was cancelled (the OS
 * sleeps within seconds of the notice: logind's delay inhibitors get 5 s, macOS waits up to 30 s for
 * acknowledgements) and no resume will come; without this the sessions would wait for ever.
 */
export const ABORTED_SUSPEND_MS = 60_000;

export const DEFAULT_POWER_CONFIG: PowerConfig = {
  lateResumeWindowMs: LATE_RESUME_WINDOW_MS,
  abortedSuspendMs: ABORTED_SUSPEND_MS,
};

export const initialPowerState = (): PowerState => ({ asleep: null, lastResumeAt: null, lastAliveAt: null });

/** Folds one raw report into the state; returns the events to emit (zero, one or a pair). */
export function reducePower(
  state: PowerState,
  input: PowerInput,
  config: PowerConfig = DEFAULT_POWER_CONFIG,
): { state: PowerState; emit: PowerOutput[] } {
  switch (input.type) {
    case 'suspend': {
      // Doubled: one sleep is already open.
      if (state.asleep) return { state, emit: [] };
      // Late: this sleep began before the last wake we reported, so it is that sleep again
      // (e.g. the drift detector's backdated suspend after powerMonitor's pair).
      if (state.lastResumeAt !== null && input.at < state.lastResumeAt) return { state, emit: [] };
      const event: SuspendEvent = { at: input.at, source: input.source };
      return { state: { ...state, asleep: event }, emit: [{ type: 'suspend', event }] };
    }
    case 'resume': {
      if (state.asleep) return wake(state, state.asleep, input.at, input.source);
      if (isLateResume(state, input, config)) return { state, emit: [] };
      // A resume without a suspend: synthesize the suspend, at the best known start of the sleep.
      const suspendAt = Math.min(input.at, input.sleptMs !== undefined ? input.at - input.sleptMs : (state.lastAliveAt ?? input.at));
      const suspend: SuspendEvent = { at: suspendAt, source: input.source };
      const woken = wake(state, suspend, input.at, input.source);
      return { state: woken.state, emit: [{ type: 'suspend', event: suspend }, ...woken.emit] };
    }
    case 'alive': {
      const next = { ...state, lastAliveAt: Math.max(input.at, state.lastAliveAt ?? input.at) };
      if (state.asleep && input.at - state.asleep.at > config.abortedSuspendMs) {
        return wake(next, state.asleep, input.at, 'drift');
      }
      return { state: next, emit: [] };
    }
  }
}

function wake(state: PowerState, suspend: SuspendEvent, at: number, source: PowerSource): { state: PowerState; emit: PowerOutput[] } {
  // A resume stamped before its suspend (clock set back) is moved to the suspend: never negative sleep.
  const resumeAt = Math.max(at, suspend.at);
  const event: ResumeEvent = { at: resumeAt, sleptMs: resumeAt - suspend.at, source };
  return {
    state: { ...state, asleep: null, lastResumeAt: resumeAt },
    emit: [{ type: 'resume', event }],
  };
}

function isLateResume(state: PowerState, input: Extract<PowerInput, { type: 'resume' }>, config: PowerConfig): boolean {
  if (state.lastResumeAt === null) return false;
  // With a known length: the sleep it describes began before the last reported wake.
  if (input.sleptMs !== undefined) return input.at - input.sleptMs < state.lastResumeAt;
  return input.at <= state.lastResumeAt + config.lateResumeWindowMs;
}

/** What an adapter reports; `at` defaults to now. */
export type PowerFeed =
  | { type: 'suspend'; source: PowerSource; at?: number }
  | { type: 'resume'; source: PowerSource; at?: number; sleptMs?: number };

export interface SuspendResumeEventMap {
  suspend: SuspendEvent;
  resume: ResumeEvent;
}

export interface PowerEventsOptions {
  clock?: PowerClock;
  config?: Partial<PowerConfig>;
  onListenerError?: ListenerErrorReporter;
}

export class PowerEvents {
  private state = initialPowerState();
  private readonly clock: PowerClock;
  private readonly config: PowerConfig;
  private readonly listeners: Listeners<SuspendResumeEventMap>;

  constructor(options: PowerEventsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.config = { ...DEFAULT_POWER_CONFIG, ...options.config };
    this.listeners = new Listeners(options.onListenerError);
  }

  /** True between an emitted suspend and its resume. */
  get asleep(): boolean {
    return this.state.asleep !== null;
  }

  on<K extends keyof SuspendResumeEventMap>(type: K, fn: (event: SuspendResumeEventMap[K]) => void): Unsubscribe {
    return this.listeners.on(type, fn);
  }

  /** A raw report from a source (the Electron powerMonitor adapter, the drift detector, a test). */
  feed(report: PowerFeed): void {
    const at = report.at ?? this.clock.wallMs();
    if (report.type === 'suspend') this.apply({ type: 'suspend', at, source: report.source });
    else this.apply({ type: 'resume', at, source: report.source, ...(report.sleptMs !== undefined ? { sleptMs: report.sleptMs } : {}) });
  }

  /** A heartbeat from the drift detector: the machine is awake at `at`. */
  alive(at: number): void {
    this.apply({ type: 'alive', at });
  }

  clear(): void {
    this.listeners.clear();
  }

  private apply(input: PowerInput): void {
    const { state, emit } = reducePower(this.state, input, this.config);
    this.state = state;
    for (const out of emit) {
      if (out.type === 'suspend') this.listeners.emit('suspend', out.event);
      else this.listeners.emit('resume', out.event);
    }
  }
}
