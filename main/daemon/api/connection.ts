// The methods that change the connection they arrive on (DESIGN.md §12): `hello` (protocol versions,
// the event log's position), `subscribe` (events from now on, after those a reconnecting client
// missed), `events.since` (what a client missed, as a read), `events.recent` (the last events kept, for a
// window opened later), and an attachment's `attach`, `input`, `resize`, `ack`, `hold` and
// `detach` (frames out, keystrokes in). Runs in the daemon.
import { PROTOCOL_VERSION, type EventResync } from '../../../common/ipc.js';
import { fail, ok } from '../../../common/result.js';
import type { Handler } from './context.js';

export const hello: Handler<'hello'> = (p, ctx) => {
  ctx.connection.peerProtocol = p.protocol;
  ctx.connection.hello = p.protocol === PROTOCOL_VERSION ? 'ok' : 'other-version';
  const log = ctx.events.log;
  return ok({ protocol: PROTOCOL_VERSION, pid: process.pid, home: ctx.home, startedAt: ctx.startedAt, epoch: log.epoch, seq: log.seq });
};

/**
 * Replays what came after `since`, then registers for the live stream, all in this one synchronous
 * turn: no event can be published between the last replayed and the first live one, so the client
 * sees each number once and none missing. A connection already subscribed gets nothing replayed: it
 * has heard every event since it subscribed.
 */
export const subscribe: Handler<'subscribe'> = (p, ctx) => {
  const c = ctx.connection;
  const log = ctx.events.log;
  if (c.unsubscribe) return ok({ epoch: log.epoch, seq: log.seq, replayed: 0, resync: null });
  let replayed = 0;
  let resync: EventResync | null = null;
  if (p.since) {
    const missed = log.since(p.since.epoch, p.since.seq);
    if (missed.ok) {
      for (const { seq, event } of missed.events) c.send({ kind: 'event', event, seq });
      replayed = missed.events.length;
    } else resync = missed.resync;
  }
  c.unsubscribe = ctx.events.on(({ seq, event }) => c.send({ kind: 'event', event, seq }));
  return ok({ epoch: log.epoch, seq: log.seq, replayed, resync });
};

export const eventsSince: Handler<'events.since'> = (p, ctx) => {
  const log = ctx.events.log;
  // One more than asked: whether others follow the page.
  const missed = log.since(p.epoch, p.seq, p.limit + 1);
  if (!missed.ok) return ok({ epoch: log.epoch, seq: log.seq, resync: missed.resync, events: [], more: false });
  return ok({ epoch: log.epoch, seq: log.seq, resync: null, events: missed.events.slice(0, p.limit), more: missed.events.length > p.limit });
};

export const eventsRecent: Handler<'events.recent'> = (p, ctx) => {
  const log = ctx.events.log;
  return ok({ epoch: log.epoch, seq: log.seq, events: log.recent(p.limit, p.types ? new Set(p.types) : undefined) });
};

export const attach: Handler<'attach'> = (p, ctx) => {
  const c = ctx.connection;
  if (c.attached) return fail('conflict', 'this connection is already attached');
  const r = ctx.supervisor.attach(
    p.session,
    { frame: (frame) => c.send({ kind: 'frame', frame }) },
    (reason) => {
      c.attached = null;
      c.send({ kind: 'detached', reason });
    },
    p.holding ?? true,
  );
  if (!r.ok) return r;
  c.attached = { attachment: r.value.attachment, terminal: r.value.terminal };
  r.value.terminal.resize(p.cols, p.rows);
  return ok(r.value.info);
};

export const input: Handler<'input'> = (p, ctx) => {
  const a = ctx.connection.attached;
  if (!a) return fail('usage', 'not attached');
  a.terminal.write(p.data);
  return ok({});
};

export const resize: Handler<'resize'> = (p, ctx) => {
  const a = ctx.connection.attached;
  if (!a) return fail('usage', 'not attached');
  a.terminal.resize(p.cols, p.rows);
  return ok({});
};

export const ack: Handler<'ack'> = (p, ctx) => {
  ctx.connection.attached?.attachment.ack(p.chars);
  return ok({});
};

export const hold: Handler<'hold'> = (p, ctx) => {
  const a = ctx.connection.attached;
  if (!a) return fail('usage', 'not attached');
  a.attachment.hold(p.holding);
  return ok({});
};

export const detach: Handler<'detach'> = (_p, ctx) => {
  ctx.connection.detach();
  return ok({});
};
