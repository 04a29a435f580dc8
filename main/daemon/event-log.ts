// The daemon's event log (DESIGN.md §12, "Events after a reconnect"): every published event gets the
// next sequence number of this daemon run, and the most recent ones are kept in a bounded ring, so a
// client that lost its connection asks for what came after the last number it saw instead of losing
// or repeating a notification. The run's epoch (a random id) tells a client that the daemon was
// restarted: its numbers start again, and the client reads the whole state afresh. Runs in the daemon.
import { randomUUID } from 'node:crypto';
import type { DaemonEvent, EventResync, LoggedEvent } from '../../common/ipc.js';

/**
 * Events kept for replay. A busy day is a few events per session per minute (activity changes are
 * debounced, work-log growth one per burst), so a few thousand cover a laptop asleep for hours with a
 * dozen sessions; each is a few hundred bytes, so the ring stays near a megabyte. A client away longer
 * reads the whole state again (`resync`), which it can always do.
 */
export const EVENT_LOG_CAPACITY = 4096;
/** The capacity a test may set (MORI_EVENT_LOG_CAPACITY), to reach a too-old gap in a few events. */
const CAPACITY_ENV = 'MORI_EVENT_LOG_CAPACITY';

/** The capacity from the environment when it holds a positive integer, else EVENT_LOG_CAPACITY. */
export function eventLogCapacity(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[CAPACITY_ENV];
  const n = raw !== undefined && /^\d{1,7}$/.test(raw) ? Number(raw) : 0;
  return n > 0 ? n : EVENT_LOG_CAPACITY;
}

/** What a client asking for the events after `seq` gets: them, in order, or why it must read everything again. */
export type SinceAnswer = { ok: true; events: LoggedEvent[] } | { ok: false; resync: EventResync };

export class EventLog {
  /** This daemon run: a client holding another epoch has numbers from an earlier run. */
  readonly epoch = randomUUID();
  private last = 0;
  private readonly ring: (LoggedEvent | undefined)[];

  constructor(readonly capacity = EVENT_LOG_CAPACITY) {
    this.ring = new Array<LoggedEvent | undefined>(capacity);
  }

  /** The number of the last event published (0 before any). */
  get seq(): number {
    return this.last;
  }

  /** Numbers and keeps one event; the entry comes back for the subscribers. */
  append(event: DaemonEvent): LoggedEvent {
    const entry = { seq: ++this.last, event };
    this.ring[entry.seq % this.capacity] = entry;
    return entry;
  }

  /**
   * The last `limit` events still kept, oldest first; with `types`, only events of those types (the
   * last `limit` of them). What a window opened later reads to show what happened before it.
   */
  recent(limit: number, types?: ReadonlySet<string>): LoggedEvent[] {
    const out: LoggedEvent[] = [];
    const oldest = Math.max(1, this.last - this.capacity + 1);
    for (let s = this.last; s >= oldest && out.length < limit; s--) {
      const e = this.ring[s % this.capacity];
      if (e?.seq === s && (!types || types.has(e.event.type))) out.push(e);
    }
    return out.reverse();
  }

  /**
   * The events after `seq` of `epoch`, oldest first, at most `limit` of them: none when the client is
   * current; a resync when the epoch is another run's, when some of them have left the ring, or when
   * `seq` is ahead of this run (a number this daemon never gave).
   */
  since(epoch: string, seq: number, limit = this.capacity): SinceAnswer {
    if (epoch !== this.epoch) return { ok: false, resync: 'epoch' };
    if (seq > this.last) return { ok: false, resync: 'ahead' };
    const oldest = Math.max(1, this.last - this.capacity + 1);
    if (seq + 1 < oldest) return { ok: false, resync: 'gap' };
    const events: LoggedEvent[] = [];
    for (let s = seq + 1; s <= this.last && events.length < limit; s++) {
      const e = this.ring[s % this.capacity];
      if (e?.seq === s) events.push(e);
    }
    return { ok: true, events };
  }
}
