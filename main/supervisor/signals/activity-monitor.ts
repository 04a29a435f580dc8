// Watches one terminal's activity (DESIGN.md §4): after output, reads the headless mirror's screen
// through the profile's patterns (optionally merged with the agent's own status report), feeds the
// debouncer and reports one transition per change. Reads happen only after output, at most once per
// read delay, and the only timer is the debouncer's deadline, so an idle session costs nothing.
// The agent's own hooks (report()) outrank the screen: a hook's word is current at once, and stays
// so until the screen changes after it and says something (an Esc-interrupt fires no hook, so the
// screen still brings the session back to waiting); a hook made before the latest output (delivered
// late) is older than the screen, which decides. Runs in the supervisor's process.
import type { ActivityTransition, AgentActivity } from '../../../common/agent-activity.js';
import { background } from '../../background.js';
import type { Cancel, PowerClock, Scheduler } from '../../power/clock.js';
import { ActivityDebouncer } from '../../agents/activity-debouncer.js';
import { combineActivity } from '../../agents/claude/session-status.js';
import type { ScreenPatterns } from '../../agents/profile.js';
import { detectActivity } from '../../agents/screen-activity.js';
import type { Terminal } from '../../terminals/terminal.js';

/**
 * Output arrives in bursts of redraws; one read this long after the first chunk of a burst sees
 * the burst's result, and caps reads of a busy agent at ~4 a second.
 */
export const ACTIVITY_READ_DELAY_MS = 250;

export interface ActivityMonitorOptions {
  patterns: ScreenPatterns;
  clock: PowerClock;
  scheduler: Scheduler;
  onTransition: (t: ActivityTransition) => void;
  /** The agent's own report (claude's status file), read alongside the screen; null when it has none. */
  reported?: () => Promise<AgentActivity | null>;
  /** Every screen read, for the other readers of the screen (the usage-limit watch). */
  onScreen?: (screen: string) => void;
  readDelayMs?: number;
  settleMs?: number;
}

export class ActivityMonitor {
  private readonly debouncer: ActivityDebouncer;
  private readTimer: Cancel | null = null;
  private flushTimer: Cancel | null = null;
  private reading = false;
  private dirty = false;
  private disposed = false;
  private readonly unsubscribe: () => void;
  /** Output chunks seen so far: a hook's word holds until the count moves past the one it arrived at. */
  private outputSeq = 0;
  private hook: { activity: AgentActivity; seq: number } | null = null;
  /**
   * When the latest output arrived, by the real clock (a hook call's time is its file's, a real
   * time too): a hook made before it is older than the screen.
   */
  private lastOutputAt = 0;
  /** Screen reads so far (diagnostics; the idle benchmark checks none happen without output). */
  reads = 0;

  constructor(
    private readonly terminal: Terminal,
    private readonly options: ActivityMonitorOptions,
  ) {
    this.debouncer = new ActivityDebouncer({
      // Settled on awake time: a sleep does not make a reading seen just before it current.
      clock: () => options.clock.monoMs(),
      wallClock: () => options.clock.wallMs(),
      ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
    });
    this.unsubscribe = terminal.onData(() => this.onOutput());
    // A re-attached screen already shows something: read it once.
    this.onOutput();
  }

  get current(): AgentActivity {
    return this.debouncer.current;
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribe();
    this.readTimer?.();
    this.flushTimer?.();
  }

  /**
   * The agent's hook reported `activity` (made at `at`, epoch ms, when known): current now, without
   * the screen's settle time. One made before the latest output reached here (delivered late, on a
   * busy machine) is older than that screen: a read follows at once, and the screen's word, if it
   * says something, wins after the usual settle. A late "working" would otherwise outlast an agent
   * already back at its prompt until it printed again.
   */
  report(activity: AgentActivity, at?: number): void {
    if (this.disposed) return;
    const late = at !== undefined && at < this.lastOutputAt;
    this.hook = { activity, seq: late ? this.outputSeq - 1 : this.outputSeq };
    if (late) this.scheduleRead();
    const from = this.debouncer.current;
    this.debouncer.reset(activity);
    this.flushTimer?.();
    this.flushTimer = null;
    if (from !== activity) this.emit({ from, to: activity, at: this.options.clock.wallMs() });
  }

  private onOutput(): void {
    this.outputSeq++;
    this.lastOutputAt = Date.now();
    this.scheduleRead();
  }

  private scheduleRead(): void {
    if (this.disposed) return;
    if (this.reading) {
      this.dirty = true;
      return;
    }
    if (this.readTimer) return;
    this.readTimer = this.options.scheduler.after(this.options.readDelayMs ?? ACTIVITY_READ_DELAY_MS, () => {
      this.readTimer = null;
      background(this.read(), 'reading the activity of a terminal');
    });
  }

  private async read(): Promise<void> {
    if (this.disposed) return;
    this.reading = true;
    this.dirty = false;
    this.reads++;
    const seq = this.outputSeq;
    let activity: AgentActivity;
    try {
      const [screen, reported] = await Promise.all([this.terminal.screenText(), this.options.reported?.() ?? Promise.resolve(null)]);
      activity = combineActivity(reported, detectActivity({ patterns: this.options.patterns }, screen));
      this.options.onScreen?.(screen);
    } catch {
      activity = 'unknown'; // the mirror was disposed under us (exit): nothing to report
    } finally {
      this.reading = false;
    }
    if (this.disposed) return;
    const hook = this.hook;
    // The hook's word stands while the screen has not changed since, or says nothing.
    if (hook !== null && (seq <= hook.seq || activity === 'unknown')) activity = hook.activity;
    else this.hook = null;
    this.emit(this.debouncer.observe(activity));
    this.scheduleFlush();
    if (this.dirty) this.onOutput();
  }

  private scheduleFlush(): void {
    this.flushTimer?.();
    this.flushTimer = null;
    const deadline = this.debouncer.nextDeadline();
    if (deadline === null) return;
    this.flushTimer = this.options.scheduler.after(Math.max(0, deadline - this.options.clock.monoMs()), () => {
      this.flushTimer = null;
      if (this.disposed) return;
      this.emit(this.debouncer.flush());
      this.scheduleFlush();
    });
  }

  private emit(t: ActivityTransition | null): void {
    if (t !== null) this.options.onTransition(t);
  }
}
