// Debounces screen-derived activity (DESIGN.md §4) so a spinner's redraw or a half-painted screen
// does not flap: a new activity becomes current only after it has been seen continuously for its
// settle time, and exactly one transition is emitted per change. Pure: time comes from an injected
// clock, and the owner calls flush() at nextDeadline() (no timers here). Runs in the supervisor.
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
  clock?: () => number;
  initial?: AgentActivity;
}

export class ActivityDebouncer {
  private currentActivity: AgentActivity;
  private pending: { activity: AgentActivity; since: number } | null = null;
  private readonly clock: () => number;
  private readonly settleMs: number;
  private readonly settleMsFor: Partial<Record<AgentActivity, number>>;

  constructor(options: ActivityDebouncerOptions = {}) {
    this.clock = options.clock ?? Date.now;
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
    if (this.pending === null || this.pending.activity !== activity) this.pending = { activity, since: now };
    return this.flush();
  }

  /** Emits the pending change if it has lasted its settle time by now; call at nextDeadline(). */
  flush(): ActivityTransition | null {
    if (this.pending === null) return null;
    if (this.clock() - this.pending.since < this.settleFor(this.pending.activity)) return null;
    const t: ActivityTransition = { from: this.currentActivity, to: this.pending.activity, at: this.pending.since };
    this.currentActivity = this.pending.activity;
    this.pending = null;
    return t;
  }

  /** When flush() may next emit (epoch ms), or null when no change is pending. */
  nextDeadline(): number | null {
    return this.pending === null ? null : this.pending.since + this.settleFor(this.pending.activity);
  }

  /** Forgets the current state (e.g. on a relaunch), without emitting. */
  reset(activity: AgentActivity = 'unknown'): void {
    this.currentActivity = activity;
    this.pending = null;
  }
}
