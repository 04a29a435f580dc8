// Shows what the notification decider decides (DESIGN.md §13): it gathers the app state's changes
// for a short window so sessions changing together (a wake resumes them one after another) make one
// notification, decides, shows each with Electron's Notification, and opens the window on the
// session when one is clicked. Per-session mutes and the pause live here (the pause is kept in the
// app's settings by the caller). Electron main process.
import type { NotificationConstructorOptions } from 'electron';
import type { DaemonEvent } from '../../common/ipc.js';
import { visibleLines, visibleText } from '../../common/visible-text.js';
import { COALESCE_MS, decideNotifications, emptyMemory, type DeciderMemory, type Notice } from '../../common/notification-decider.js';
import type { WatchedSession } from '../../common/session-view.js';


export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

export interface NotificationControllerOptions {
  create: (options: NotificationConstructorOptions) => NotificationLike;
  rows: () => WatchedSession[];
  /** The session the person is looking at in a focused window, else null. */
  focusedSession: () => string | null;
  pausedUntil: () => number | null;
  /** The daemon's notification settings (DESIGN.md §12), shared with `mori ui`; null until read. */
  daemonNotifications?: () => { paused: boolean; events: readonly string[] } | null;
  openSession: (id: string | null) => void;
  coalesceMs?: number;
  now?: () => number;
}

export class NotificationController {
  private memory: DeciderMemory = emptyMemory();
  private events: DaemonEvent[] = [];
  private quiet = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  readonly muted = new Set<string>();
  private primed = false;

  constructor(private readonly o: NotificationControllerOptions) {}

  /** Called on every state change with its events (and the sessions first seen in it, taken as told). The first one only learns the current state. */
  changed(events: readonly DaemonEvent[], quiet: Iterable<string> = []): void {
    if (!this.primed) {
      // Conditions that were already there when the app started were told before (or are in the window).
      this.primed = true;
      this.memory = decideNotifications(this.memory, this.input([])).memory;
      return;
    }
    this.events.push(...events);
    for (const id of quiet) this.quiet.add(id);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.o.coalesceMs ?? COALESCE_MS);
  }

  /** Decides now on what was gathered. */
  flush(): Notice[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const events = this.events;
    const quiet = this.quiet;
    this.events = [];
    this.quiet = new Set();
    const { memory, notices } = decideNotifications(this.memory, { ...this.input(events), quiet });
    this.memory = memory;
    for (const n of notices) this.show(n);
    return notices;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private input(events: readonly DaemonEvent[]): Parameters<typeof decideNotifications>[1] {
    return {
      rows: this.o.rows(),
      events,
      now: (this.o.now ?? Date.now)(),
      focusedSession: this.o.focusedSession(),
      muted: this.muted,
      pausedUntil: this.o.pausedUntil(),
      daemonNotifications: this.o.daemonNotifications?.() ?? null,
    };
  }

  private show(n: Notice): void {
    // A session's task, a screen line or a check's summary may be in the words: shown, never interpreted.
    const notification = this.o.create({ title: visibleText(n.title), body: visibleLines(n.body), silent: false });
    notification.on('click', () => this.o.openSession(n.session));
    notification.show();
  }
}
