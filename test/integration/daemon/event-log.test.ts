// The daemon's event log over its real socket (`mori up --daemon`, a log of 16 events so a gap older
// than it is reached in a few): every event numbered in order; a client that lost its connection
// subscribes after the last event it saw and gets exactly the ones it missed, none twice, none lost,
// also through the app's reconnecting connection; another daemon run, a gap older than the log and a
// number never given answer `resync`; `events.since` pages; `events.recent` gives the last ones; bad params are refused by the schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonEvent, IpcServerMessage } from '../../../common/ipc.js';
import type { ControlClient } from '../../../main/daemon-client/control-client.js';
import { DaemonConnection } from '../../../main/daemon-client/daemon-connection.js';
import { call, client } from '../../support/daemon.js';
import { UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

/** The daemon keeps this many events (MORI_EVENT_LOG_CAPACITY). */
const CAPACITY = 16;

let h: UpHarness;
let c: ControlClient;

beforeAll(async () => {
  h = new UpHarness('event-log', { MORI_EVENT_LOG_CAPACITY: String(CAPACITY) });
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  ({ c } = await client(h.home));
}, 60_000);
afterAll(() => {
  c?.close();
  h.cleanup();
});

let nextMark = 100;
/** `n` events, each a `settings.changed` that a restart delay of its own names, in this order. */
async function cause(n: number): Promise<string[]> {
  const settings = (await call(c, 'settings.get', {})) as { restart: Record<string, unknown> };
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const mark = nextMark++;
    await call(c, 'settings.set', { settings: { ...settings, restart: { ...settings.restart, baseDelayMs: mark } } as never });
    names.push(String(mark));
  }
  return names;
}

const target = (e: DaemonEvent): string => (e.type === 'settings.changed' ? String(e.settings.restart.baseDelayMs) : e.type);
/** The names of the events this test caused, in the order heard (the daemon may publish others). */
const caused = (events: DaemonEvent[]): string[] => events.filter((e) => e.type === 'settings.changed').map(target);

/** A connection that collects the numbered events it is sent. */
async function subscriber(since?: { epoch: string; seq: number }) {
  const { c: sub } = await client(h.home);
  const got: { seq: number; event: DaemonEvent }[] = [];
  sub.onStream((m: Exclude<IpcServerMessage, { kind: 'reply' }>) => {
    if (m.kind === 'event' && m.seq !== undefined) got.push({ seq: m.seq, event: m.event });
  });
  const reply = await call(sub, 'subscribe', since ? { since } : {});
  return { sub, got, reply: reply as { epoch: string; seq: number; replayed: number; resync: string | null }, events: got };
}

describe('the event log', () => {
  it('numbers every event in order, from the position hello gives', async () => {
    const hello = c.daemon;
    expect(hello.epoch).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof hello.seq).toBe('number');
    const s = await subscriber();
    expect(s.reply).toMatchObject({ epoch: hello.epoch, resync: null, replayed: 0 });
    const names = await cause(5);
    await until('five events', () => caused(s.got.map((g) => g.event)).length >= 5);
    expect(caused(s.got.map((g) => g.event))).toEqual(names);
    // Every event the daemon published, this test's and any other, numbered on from the reply's.
    expect(s.got.map((g) => g.seq)).toEqual(s.got.map((_, i) => s.reply.seq + 1 + i));
    s.sub.close();
  });

  it('gives a client back exactly the events it missed while disconnected, then the live ones, none twice', async () => {
    const first = await subscriber();
    await cause(3);
    await until('three events', () => caused(first.got.map((g) => g.event)).length === 3);
    const last = first.got[first.got.length - 1]!.seq;
    first.sub.close();
    const missed = await cause(4);
    const again = await subscriber({ epoch: first.reply.epoch, seq: last });
    // The missed ones came before the reply, in order, numbered on from the last seen.
    const replayed = again.got.length;
    expect(again.reply).toMatchObject({ resync: null, replayed, seq: last + replayed });
    expect(caused(again.got.map((g) => g.event))).toEqual(missed);
    const live = await cause(2);
    await until('the live events', () => caused(again.got.map((g) => g.event)).length === 6);
    expect(caused(again.got.map((g) => g.event))).toEqual([...missed, ...live]);
    expect(again.got.map((g) => g.seq)).toEqual(again.got.map((_, i) => last + 1 + i));
    // `events.since` reads the same, in pages.
    const page = (await call(c, 'events.since', { epoch: first.reply.epoch, seq: last, limit: replayed })) as { events: { seq: number; event: DaemonEvent }[]; more: boolean };
    expect(caused(page.events.map((e) => e.event))).toEqual(missed);
    expect(page.more).toBe(true);
    again.sub.close();
  });

  it('the app\'s connection reconnects after a lost socket and hands on each missed event once', { timeout: 30_000 }, async () => {
    const conn = new DaemonConnection(h.home, { client: 'event-log test', reconnectMs: 1_500 });
    const heard: string[] = [];
    conn.onEvent((e) => {
      if (e.type === 'settings.changed') heard.push(target(e));
    });
    conn.start();
    await until('the connection to open', () => conn.state === 'open');
    const before = await cause(2);
    await until('the first events', () => heard.length === 2);
    // The socket is lost (as when the daemon's machine sleeps); the daemon goes on.
    (conn as unknown as { current: { close(): void } }).current.close();
    await until('the connection to notice', () => conn.state !== 'open');
    const during = await cause(3);
    expect(conn.state).not.toBe('open');
    await until('the connection to come back', () => conn.state === 'open');
    const after = await cause(2);
    await until('every event', () => heard.length >= 7, () => JSON.stringify(heard));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([...before, ...during, ...after]);
    conn.close();
  });

  it('answers resync for another daemon run, a gap older than the log, and a number never given', async () => {
    const epoch = c.daemon.epoch ?? '';
    const other = await subscriber({ epoch: '00000000-0000-4000-8000-000000000000', seq: 1 });
    expect(other.reply).toMatchObject({ epoch, resync: 'epoch', replayed: 0 });
    other.sub.close();
    const at = (await call(c, 'events.since', { epoch, seq: 0, limit: 1 })) as { seq: number };
    await cause(CAPACITY + 2);
    const old = await subscriber({ epoch, seq: at.seq });
    expect(old.reply).toMatchObject({ resync: 'gap', replayed: 0 });
    expect(old.got).toEqual([]);
    old.sub.close();
    expect(await call(c, 'events.since', { epoch, seq: at.seq })).toMatchObject({ resync: 'gap', events: [] });
    expect(await call(c, 'events.since', { epoch, seq: at.seq + 10_000 })).toMatchObject({ resync: 'ahead', events: [] });
    // The last CAPACITY events are still there.
    const now = (await call(c, 'events.since', { epoch, seq: 0, limit: 1 })) as { seq: number };
    const kept = (await call(c, 'events.since', { epoch, seq: now.seq - CAPACITY })) as { events: unknown[]; resync: null };
    expect(kept).toMatchObject({ resync: null });
    expect(kept.events).toHaveLength(CAPACITY);
  });

  it('`events.recent` gives the last events kept, of the types asked for, with their numbers and times', async () => {
    const names = await cause(3);
    const r = (await call(c, 'events.recent', { limit: 2, types: ['settings.changed'] })) as { seq: number; events: { seq: number; event: DaemonEvent }[] };
    expect(caused(r.events.map((e) => e.event))).toEqual(names.slice(1));
    expect(r.events[1]?.seq).toBe(r.seq);
    expect(r.events.every((e) => e.event.at > Date.now() - 60_000)).toBe(true);
    const bad = await c.request('events.recent', { limit: 0 });
    expect(bad).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/^events\.recent: limit: /) });
  });

  it('refuses a malformed position, naming the field', async () => {
    const r = await c.request('subscribe', { since: { epoch: '', seq: -1 } });
    expect(r).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/^subscribe: since\.epoch: /) });
    const s = await c.request('events.since', { epoch: 'x', seq: 1.5 });
    expect(s).toMatchObject({ ok: false, code: 'usage', message: expect.stringMatching(/^events\.since: seq: /) });
  });

  it('after a daemon restart the app\'s connection is told to read everything again, and numbering starts anew', { timeout: 60_000 }, async () => {
    const conn = new DaemonConnection(h.home, { client: 'event-log restart test', reconnectMs: 250 });
    const resyncs: string[] = [];
    const heard: string[] = [];
    conn.onResync((why) => resyncs.push(why));
    conn.onEvent((e) => {
      if (e.type === 'settings.changed') heard.push(target(e));
    });
    conn.start();
    await until('the connection to open', () => conn.state === 'open');
    await cause(2);
    await until('the old run\'s events', () => heard.length === 2);
    const oldEpoch = conn.cursor.at?.epoch;
    c.close();
    expect(h.mori('down').code).toBe(0);
    expect(h.mori('up', '--daemon').code).toBe(0);
    ({ c } = await client(h.home));
    await until('a resync', () => resyncs.length > 0, () => conn.state, 30_000);
    expect(resyncs).toEqual(['epoch']);
    expect(conn.cursor.at?.epoch).not.toBe(oldEpoch);
    const fresh = await cause(1);
    await until('the new run\'s event', () => heard.includes(fresh[0]!), () => JSON.stringify(heard));
    conn.close();
  });
});
