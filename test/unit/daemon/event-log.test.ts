// The event log's ring and a client's cursor, without a socket: numbers in order, the events after a
// position, the last events (of some types), resync for another run, a gap past the ring and a number never given; the cursor drops a
// number handed on already and starts over from the reply on a resync.
import { describe, expect, it } from 'vitest';
import { EventCursor } from '../../../common/event-cursor.js';
import type { DaemonEvent } from '../../../common/ipc.js';
import { EventLog, eventLogCapacity, EVENT_LOG_CAPACITY } from '../../../main/daemon/event-log.js';

const ev = (at: number): DaemonEvent => ({ type: 'log.appended', at, sessionId: 's', name: 'n' });

describe('the event log', () => {
  it('numbers events in order and gives those after a position, until they leave the ring', () => {
    const log = new EventLog(4);
    expect(log.since(log.epoch, 0)).toEqual({ ok: true, events: [] });
    for (let i = 1; i <= 6; i++) expect(log.append(ev(i)).seq).toBe(i);
    const after = log.since(log.epoch, 3);
    expect(after.ok && after.events.map((e) => [e.seq, e.event.at])).toEqual([[4, 4], [5, 5], [6, 6]]);
    expect(log.since(log.epoch, 2)).toEqual({ ok: true, events: expect.any(Array) });
    expect(log.since(log.epoch, 1)).toEqual({ ok: false, resync: 'gap' });
    expect(log.since(log.epoch, 7)).toEqual({ ok: false, resync: 'ahead' });
    expect(log.since('another run', 6)).toEqual({ ok: false, resync: 'epoch' });
    const page = log.since(log.epoch, 2, 2);
    expect(page.ok && page.events.map((e) => e.seq)).toEqual([3, 4]);
    expect(new EventLog().epoch).not.toBe(log.epoch);
  });

  it('gives the last events it keeps, oldest first, of the types asked for', () => {
    const log = new EventLog(4);
    expect(log.recent(10)).toEqual([]);
    for (let i = 1; i <= 6; i++) log.append(i % 2 ? ev(i) : { type: 'verify.started', at: i, sessionId: 's', name: 'n' });
    expect(log.recent(10).map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    expect(log.recent(2).map((e) => e.seq)).toEqual([5, 6]);
    expect(log.recent(10, new Set(['verify.started'])).map((e) => [e.seq, e.event.at])).toEqual([[4, 4], [6, 6]]);
    expect(log.recent(1, new Set(['log.appended'])).map((e) => e.seq)).toEqual([5]);
    expect(log.recent(10, new Set(['session.attention']))).toEqual([]);
  });

  it('takes its capacity from the environment only as a positive integer', () => {
    expect(eventLogCapacity({ MORI_EVENT_LOG_CAPACITY: '16' })).toBe(16);
    for (const bad of ['0', '-3', 'lots', '1e9', '']) expect(eventLogCapacity({ MORI_EVENT_LOG_CAPACITY: bad })).toBe(EVENT_LOG_CAPACITY);
  });
});

describe('a client\'s cursor', () => {
  it('resumes after the last event handed on, drops repeats, and starts over on a resync', () => {
    const cur = new EventCursor();
    expect(cur.subscribeParams()).toEqual({});
    expect(cur.subscribed({ epoch: 'a', seq: 10, replayed: 0, resync: null }, {})).toEqual({ kind: 'fresh' });
    expect([11, 12, 12, 11, 13].map((s) => cur.accept(s))).toEqual([true, true, false, false, true]);
    const asked = cur.subscribeParams();
    expect(asked).toEqual({ since: { epoch: 'a', seq: 13 } });
    expect([14, 15].map((s) => cur.accept(s))).toEqual([true, true]);
    expect(cur.subscribed({ epoch: 'a', seq: 15, replayed: 2, resync: null }, asked)).toEqual({ kind: 'resumed', replayed: 2 });
    expect(cur.accept(15)).toBe(false);
    expect(cur.subscribed({ epoch: 'b', seq: 3, replayed: 0, resync: 'epoch' }, cur.subscribeParams())).toEqual({ kind: 'resync', why: 'epoch' });
    expect(cur.at).toEqual({ epoch: 'b', seq: 3 });
    expect(cur.accept(4)).toBe(true);
    expect(cur.accept(undefined)).toBe(true);
  });
});

describe('a daemon from before the event log', () => {
  it('answers subscribe with {}: read as no position, its events handed on, a resubscription reads the state afresh', async () => {
    const { SubscribeResult } = await import('../../../common/ipc.js');
    const old = SubscribeResult.parse({});
    const cursor = new EventCursor();
    expect(cursor.subscribed(old, {})).toEqual({ kind: 'fresh' });
    expect(cursor.at).toBeNull();
    expect(cursor.subscribeParams()).toEqual({});
    expect(cursor.accept(undefined)).toBe(true);
    // A client that had a position from a newer daemon, then meets the older one again.
    cursor.subscribed(SubscribeResult.parse({ epoch: 'run', seq: 5, replayed: 0, resync: null }), {});
    expect(cursor.subscribed(old, cursor.subscribeParams())).toEqual({ kind: 'resync', why: 'epoch' });
    expect(cursor.at).toBeNull();
  });
});
