// The daemon's side of keeping the machine awake (DESIGN.md §6 "Keep awake"): after every supervisor
// event it counts the sessions at work, steps keep-awake.ts's decision, holds or releases the sleep
// inhibitor, and runs the timer that ends the grace period. The settings are read at start and again
// when they are set. Says what it does in the daemon's log and as a `keep-awake` event, once per
// change. Runs in the daemon.
import type { DaemonSettings } from '../../common/daemon-settings.js';
import type { LiveSession } from '../../common/ipc.js';
import { awakeStep, NOT_HOLDING, workingCount, type AwakeState } from '../power/keep-awake.js';
import type { SleepInhibitor } from '../power/sleep-inhibitor.js';

export interface KeepAwakePorts {
  list(): readonly Pick<LiveSession, 'state' | 'activity'>[];
  inhibitor: Pick<SleepInhibitor, 'hold' | 'release' | 'held'>;
  now(): number;
  log(message: string): void;
  /** Tells the daemon's clients (the tray) that the hold began or ended. */
  publish(holding: boolean, working: number): void;
}

export class KeepAwakeHost {
  private state: AwakeState = NOT_HOLDING;
  private timer: NodeJS.Timeout | null = null;
  private settings: { enabled: boolean; graceMs: number };

  constructor(
    private readonly ports: KeepAwakePorts,
    settings: DaemonSettings['keepAwake'],
  ) {
    this.settings = KeepAwakeHost.from(settings);
  }

  private static from(k: DaemonSettings['keepAwake']): { enabled: boolean; graceMs: number } {
    return { enabled: k.enabled, graceMs: k.graceMinutes * 60_000 };
  }

  /** What it holds now: `mori ls` and the tray say it. */
  status(): AwakeState & { enabled: boolean } {
    return { ...this.state, enabled: this.settings.enabled };
  }

  setSettings(k: DaemonSettings['keepAwake']): void {
    this.settings = KeepAwakeHost.from(k);
    this.update();
  }

  /** Looks again: after any event, and when the grace period ends. */
  update(): void {
    const next = awakeStep(this.state, workingCount(this.ports.list()), this.ports.now(), this.settings);
    if (next.holding && !this.ports.inhibitor.held) {
      this.ports.inhibitor.hold();
      this.ports.log(`keeping the machine awake (${next.working} working)`);
      this.ports.publish(true, next.working);
    } else if (!next.holding && this.ports.inhibitor.held) {
      this.ports.inhibitor.release();
      this.ports.log('no longer keeping the machine awake');
      this.ports.publish(false, 0);
    }
    if (next.releaseAt !== this.state.releaseAt) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      if (next.releaseAt !== null) {
        this.timer = setTimeout(() => this.update(), Math.max(0, next.releaseAt - this.ports.now()));
        this.timer.unref();
      }
    }
    this.state = next;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ports.inhibitor.release();
    this.state = NOT_HOLDING;
  }
}
