// The drift detector: a 1 s tick that notices the machine slept or the process was frozen
// (SIGSTOP, a debugger, a stalled VM) because a tick arrived far later than expected on the wall
// or the monotonic clock. Always runs, with or without Electron. Main process (and `mori up`).
//
// The decision (`judgeTick`) is pure; `DriftDetector` is the thin shell that samples the clocks on
// an injectable scheduler.
import { systemClock, systemScheduler, type Cancel, type PowerClock, type Scheduler } from './clock.js';

/** One tick's reading of both clocks. */
export interface TickSample {
  wallMs: number;
  monoMs: number;
}

export interface DriftConfig {
  intervalMs: number;
  thresholdMs: number;
}

/** Tick every second: a suspend is noticed within about a second of wake, at negligible cost. */
export const DRIFT_TICK_MS = 1_000;

/**
 * A tick more than 5 s late means the machine slept or the process was frozen. Well above any
 * event-loop stall or GC pause a healthy supervisor sees, and still short enough that a brief
 * sleep is caught (DESIGN.md §8).
 */
export const DRIFT_THRESHOLD_MS = 5_000;

export const DEFAULT_DRIFT_CONFIG: DriftConfig = { intervalMs: DRIFT_TICK_MS, thresholdMs: DRIFT_THRESHOLD_MS };

/**
 * What one tick means. A gap is reported as a suspend backdated to the last good tick and a resume
 * now: `sleptMs === resumeAt - suspendAt`, so it overstates the real sleep by less than one interval.
 */
export type DriftVerdict =
  | { kind: 'on-time' }
  | { kind: 'gap'; suspendAt: number; resumeAt: number; sleptMs: number; clock: 'wall' | 'monotonic' };

/**
 * Compares a tick with the previous one. Late on either clock counts: the monotonic clock stops
 * during sleep on Linux and macOS, so there only the wall clock sees the gap; while a process is
 * frozen both advance; if the wall clock was set back meanwhile, only the monotonic one does.
 */
export function judgeTick(prev: TickSample, now: TickSample, config: DriftConfig = DEFAULT_DRIFT_CONFIG): DriftVerdict {
  const wallElapsed = now.wallMs - prev.wallMs;
  const monoElapsed = now.monoMs - prev.monoMs;
  const wallLate = wallElapsed - config.intervalMs > config.thresholdMs;
  const monoLate = monoElapsed - config.intervalMs > config.thresholdMs;
  if (!wallLate && !monoLate) return { kind: 'on-time' };
  const sleptMs = Math.max(wallElapsed, monoElapsed);
  return {
    kind: 'gap',
    suspendAt: now.wallMs - sleptMs,
    resumeAt: now.wallMs,
    sleptMs,
    clock: wallElapsed >= monoElapsed ? 'wall' : 'monotonic',
  };
}

export interface DriftDetectorOptions {
  /** Called when a tick reveals a gap, before `onTick` of the same tick. */
  onGap: (gap: Extract<DriftVerdict, { kind: 'gap' }>) => void;
  /** Called on every tick with the sample taken (a heartbeat: the process is awake now). */
  onTick?: (sample: TickSample) => void;
  clock?: PowerClock;
  scheduler?: Scheduler;
  config?: Partial<DriftConfig>;
}

export class DriftDetector {
  private readonly clock: PowerClock;
  private readonly scheduler: Scheduler;
  private readonly config: DriftConfig;
  private prev: TickSample | null = null;
  private cancel: Cancel | null = null;

  constructor(private readonly options: DriftDetectorOptions) {
    this.clock = options.clock ?? systemClock;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.config = { ...DEFAULT_DRIFT_CONFIG, ...options.config };
  }

  get running(): boolean {
    return this.cancel !== null;
  }

  /** The last tick taken, or null before start. */
  lastTick(): TickSample | null {
    return this.prev;
  }

  start(): void {
    if (this.cancel) return;
    this.prev = this.sample();
    this.schedule();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  private sample(): TickSample {
    return { wallMs: this.clock.wallMs(), monoMs: this.clock.monoMs() };
  }

  private schedule(): void {
    this.cancel = this.scheduler.after(this.config.intervalMs, () => this.tick());
  }

  private tick(): void {
    const now = this.sample();
    const prev = this.prev ?? now;
    this.prev = now;
    // Schedule first, so a throwing callback cannot stop the detector.
    this.schedule();
    const verdict = judgeTick(prev, now, this.config);
    if (verdict.kind === 'gap') this.options.onGap(verdict);
    this.options.onTick?.(now);
  }
}
