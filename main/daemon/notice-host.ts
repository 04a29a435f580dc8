// The daemon's notices off the machine (DESIGN.md §13 "Notices off the machine"): it keeps the
// sessions as the app's rows are kept (session-list-store.ts), gathers the supervisor's events for the
// desktop's coalescing window, lets the desktop's decider (notification-decider.ts, every transition)
// choose the notices, and sends each to the targets that take its kind — so one transition is one
// notice, as on the desktop. The daemon's pause and muted sessions count here too. Targets come from
// settings.json, read at start and again when they change. Runs in the daemon.
import os from 'node:os';
import type { DaemonSettings, NotifyTarget } from '../../common/daemon-settings.js';
import type { DaemonEvent, IpcResult, LiveSession } from '../../common/ipc.js';
import { maskedUrl } from '../../common/notify-targets.js';
import { COALESCE_MS, decideNotifications, emptyMemory, type DeciderMemory, type Notice } from '../../common/notification-decider.js';
import { applyList, foldEvent } from '../../common/session-list-store.js';
import type { WatchedSession } from '../../common/session-view.js';
import { NoticeSender, type RetryPolicy } from './notice-sender.js';
import { sentNotice } from './notice-request.js';

export interface NoticeHostOptions {
  list(): readonly LiveSession[];
  log(line: string): void;
  now?: () => number;
  coalesceMs?: number;
  retry?: RetryPolicy;
}

type Shared = Pick<DaemonSettings, 'notifyTargets' | 'notifications'>;

/** Whether a target takes a notice: its own list of kinds; `attention` (a session that needs the person) always. */
export const targetTakes = (t: Pick<NotifyTarget, 'events'>, n: Pick<Notice, 'kind'>): boolean => n.kind === 'attention' || (t.events as readonly string[]).includes(n.kind);

export class NoticeHost {
  private memory: DeciderMemory = emptyMemory();
  private readonly rows = new Map<string, WatchedSession>();
  private events: DaemonEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly sender: NoticeSender;
  private readonly sending = new Set<Promise<unknown>>();

  constructor(
    private readonly o: NoticeHostOptions,
    private settings: Shared,
  ) {
    this.sender = new NoticeSender({ host: os.hostname(), log: o.log, ...(o.retry ? { retry: o.retry } : {}) });
    // What is so when the daemon starts was told before (or is in the window): learnt, not sent.
    applyList(this.rows, o.list());
    this.memory = this.decide([]).memory;
  }

  setSettings(s: Shared): void {
    this.settings = s;
  }

  /** Every supervisor event: folded into the rows now, decided on after the coalescing window. */
  event(e: DaemonEvent): void {
    applyList(this.rows, this.o.list());
    foldEvent(this.rows, e);
    this.events.push(e);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.o.coalesceMs ?? COALESCE_MS);
  }

  /** Decides on what was gathered and sends each notice to the targets that take it. */
  flush(): Notice[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const events = this.events;
    this.events = [];
    applyList(this.rows, this.o.list());
    const { memory, notices } = this.decide(events);
    this.memory = memory;
    if (this.settings.notifications.paused) return [];
    const at = (this.o.now ?? Date.now)();
    for (const n of notices) {
      for (const t of this.settings.notifyTargets) if (targetTakes(t, n)) this.track(this.sender.deliver(t, sentNotice(n, at)));
    }
    return notices;
  }

  /** One test notice to every target, one try each (`mori notify test`). */
  async test(): Promise<IpcResult<'notify.test'>> {
    const n = { kind: 'test', title: 'Mori: test notice', body: `Notices from ${os.hostname()} reach this target.`, sessions: [], at: (this.o.now ?? Date.now)() };
    return Promise.all(this.settings.notifyTargets.map(async (t) => ({ id: t.id, url: maskedUrl(t.url), ...(await this.sender.once(t, n)) }))).then((rs) => rs.map(({ id, url, ok, detail }) => ({ id, url, ok, detail })));
  }

  /** Settles once every notice under way is delivered or given up (tests, and a daemon stopping). */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.sender.dispose();
  }

  private decide(events: readonly DaemonEvent[]): ReturnType<typeof decideNotifications> {
    return decideNotifications(this.memory, {
      rows: [...this.rows.values()],
      events,
      now: (this.o.now ?? Date.now)(),
      focusedSession: null,
      muted: new Set(this.settings.notifications.muted),
      pausedUntil: null,
      daemonNotifications: null,
      offMachine: true,
    });
  }

  private track(p: Promise<unknown>): void {
    this.sending.add(p);
    p.finally(() => this.sending.delete(p)).catch(() => undefined);
  }
}
