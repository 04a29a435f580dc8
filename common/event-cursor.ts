// A client's place in the daemon's event log (DESIGN.md §12, "Events after a reconnect"): the daemon
// run and the number of the last event handed on. Each (re)subscription asks for what came after it
// (`subscribe` with `since`); an event whose number was already handed on is dropped, so a reconnect
// neither loses nor repeats one; the reply says whether the client must read the whole state again
// (another daemon run, or a gap older than the daemon keeps). Used by every client that follows
// events: the app's daemon connection, the web page's, a remote attachment. Pure TypeScript.
import type { EventPosition, EventResync, IpcParams, SubscribeResult } from './ipc.js';

/** What a subscription found: the first one, the missed events replayed, or the state to read afresh. */
export type SubscribeOutcome = { kind: 'fresh' } | { kind: 'resumed'; replayed: number } | { kind: 'resync'; why: EventResync };

export class EventCursor {
  private position: EventPosition | null = null;

  /** The last event handed on, null before the first subscription. */
  get at(): EventPosition | null {
    return this.position ? { ...this.position } : null;
  }

  /** The params of the next subscription: after the last event handed on, when there was one. */
  subscribeParams(): IpcParams<'subscribe'> {
    return this.position ? { since: { ...this.position } } : {};
  }

  /**
   * An event as it arrives, by its number: true to hand it on, false for one handed on already. An
   * event without a number (a daemon older than the log) is always handed on.
   */
  accept(seq: number | undefined): boolean {
    if (seq === undefined || !this.position) return true;
    if (seq <= this.position.seq) return false;
    this.position.seq = seq;
    return true;
  }

  /**
   * The subscription's reply. The replayed events came before it (and were accepted); the live ones
   * come after it. On a resync the numbering starts from the new run's present.
   */
  subscribed(r: SubscribeResult, asked: IpcParams<'subscribe'>): SubscribeOutcome {
    if (r.epoch === '') {
      // A daemon older than the log: nothing to resume from, so a reconnect reads the state afresh.
      this.position = null;
      return asked.since ? { kind: 'resync', why: 'epoch' } : { kind: 'fresh' };
    }
    // Live events may have come before the reply of a repeated subscription: never step back within a
    // run, except on a resync, where the client's number means nothing to this daemon.
    const keep = r.resync === null && this.position?.epoch === r.epoch ? this.position.seq : 0;
    this.position = { epoch: r.epoch, seq: Math.max(keep, r.seq) };
    if (r.resync !== null) return { kind: 'resync', why: r.resync };
    return asked.since ? { kind: 'resumed', replayed: r.replayed } : { kind: 'fresh' };
  }
}
