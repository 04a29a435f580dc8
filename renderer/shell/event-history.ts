// What happened before the window opened (DESIGN.md §13, "History at start"): the daemon's last
// events read with `events.recent` at start and after each reconnect, and the guard that hands each
// event on once whether it came from that read or from the live stream (the subscription opens
// before the read answers, so the two overlap). Runs in the renderer.
import type { DaemonEvent } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';

/**
 * The events that tell the story of a session (interrupted, resumed, failed, waiting for the person),
 * read apart from the rest so a night of activity changes and log growth does not push them out.
 */
export const STORY_TYPES: readonly DaemonEvent['type'][] = [
  'session.started',
  'session.exited',
  'session.interrupted',
  'session.resuming',
  'session.resumed',
  'session.attention',
  'session.limited',
  'session.stopped',
  'session.renamed',
  'session.handedOff',
  'session.removed',
  'verify.finished',
  'power.suspend',
  'power.resume',
  'network.offline',
  'network.online',
];
/** Story events read: the notices list keeps 100; the rest give the sessions' last messages and times. */
const STORY_LIMIT = 500;
/** Any events read, for each session's last activity: the page the daemon gives at most. */
const RECENT_LIMIT = 1000;
/** Events remembered as handed on: more than one history read can return, so no overlap is missed. */
const SEEN_MAX = 4096;

/** The daemon's last events, oldest first, each once; empty when the daemon cannot say (an older one, a failed read). */
export async function readHistory(api: MoriApi): Promise<DaemonEvent[]> {
  const [story, recent] = await Promise.all([
    api.call('events.recent', { limit: STORY_LIMIT, types: [...STORY_TYPES] }),
    api.call('events.recent', { limit: RECENT_LIMIT }),
  ]);
  const bySeq = new Map<number, DaemonEvent>();
  for (const r of [story, recent]) if (r.ok) for (const e of r.value.events) bySeq.set(e.seq, e.event);
  return [...bySeq.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
}

/**
 * The events handed on already, by their content: an event is a time to the millisecond and what
 * happened, so the same content twice is the same event heard by two ways (the live stream carries no
 * number in the window's API).
 */
export class SeenEvents {
  private readonly seen = new Set<string>();

  /** True the first time an event is offered, false after. */
  first(e: DaemonEvent): boolean {
    const key = JSON.stringify(e);
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    if (this.seen.size > SEEN_MAX) {
      // A Set iterates in insertion order: the oldest key goes first.
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return true;
  }
}
