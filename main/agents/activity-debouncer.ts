// Debounces screen-derived activity (DESIGN.md §4) so a spinner's redraw or a half-painted screen
// does not flap: a new activity becomes current only after it has been seen continuously for its
// settle time, and exactly one transition is emitted per change. Pure: time comes from injected
// clocks, and the owner calls flush() at nextDeadline() (no timers here). The settle time is counted
// on a clock that stops while the machine sleeps: an agent frozen by a sleep repainted nothing, so
// a reading seen just before it is not settled by it. Runs in the supervisor.
import type { ActivityTransition, AgentActivity } from '../../common/agent-activity.js';

/**
 * Agents repaint their status line several times a second and finish a turn's repaint within about
 * a second, so 1.5 s of the same reading means the state is real.
 */
export const DEFAULT_SETTLE_MS = 1_500;

export interface ActivityDebouncerOptions {
  settleMs?: number;
  /** Per-activity settle times, e.g. a shorter one for needs-input so a person is told sooner. */
  settleMsFor?: Partial<Record<AgentActivity, number>>;
  /** What the settle time is counted on: awake ms (PowerClock.monoMs); default Date.now. */
  clock?: () => number;
  /** Epoch ms, for a transition's `at`; default `clock`. */
  wallClock?: () => number;
  initial?: AgentActivity;
}

export class ActivityDebouncer {
  private currentActivity: AgentActivity;
  /** The reading waiting to settle: since when on `clock`, and on the wall clock. */
  private pending: { activity: AgentActivity; since: number; at: number } | null = null;
  private readonly clock: () => number;
  private readonly wallClock: () => number;
  private readonly settleMs: number;
  private readonly settleMsFor: Partial<Record<AgentActivity, number>>;

  constructor(options: ActivityDebouncerOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.wallClock = options.wallClock ?? this.clock;
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.settleMsFor = options.settleMsFor ?? {};
    this.currentActivity = options.initial ?? 'unknown';
  }

  get current(): AgentActivity {
    return this.currentActivity;
  }

  private settleFor(activity: AgentActivity): number {
    return this.settleMsFor[activity] ?? this.settleMs;
  }

  /** Feeds one reading; returns the transition if a pending change has now settled (possibly this one). */
  observe(activity: AgentActivity): ActivityTransition | null {
    const now = this.clock();
    if (activity === this.currentActivity) {
      this.pending = null; // a flicker back to the current state cancels the change
      return null;
    }
    if (this.pending === null || this.pending.activity !== activity) this.pending = { activity, since: now, at: this.wallClock() };
    return this.flush();
  }

  /** Emits the pending change if it has lasted its settle time by now; call at nextDeadline(). */
  flush(): ActivityTransition | null {
    if (this.pending === null) return null;
    if (this.clock() - this.pending.since < this.settleFor(this.pending.activity)) return null;
    const t: ActivityTransition = { from: this.currentActivity, to: this.pending.activity, at: this.pending.at };
    this.currentActivity = this.pending.activity;
    this.pending = null;
    return t;
  }

  /** When flush() may next emit (on `clock`), or null when no change is pending. */
  nextDeadline(): number | null {
    return this.pending === null ? null : this.pending.since + this.settleFor(this.pending.activity);
  }

  /** Forgets the current state (e.g. on a relaunch), without emitting. */
  reset(activity: AgentActivity = 'unknown'): void {
    this.currentActivity = activity;
    this.pending = null;
  }
}
