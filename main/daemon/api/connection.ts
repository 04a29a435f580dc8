// The methods that change the connection they arrive on (DESIGN.md §12): `hello` (protocol versions),
// `subscribe` (events from now on), and an attachment's `attach`, `input`, `resize`, `ack` and
// `detach` (frames out, keystrokes in). Runs in the daemon.
import { PROTOCOL_VERSION } from '../../../common/ipc.js';
import { fail, ok } from '../../../common/result.js';
import type { Handler } from './context.js';

export const hello: Handler<'hello'> = (p, ctx) => {
  ctx.connection.peerProtocol = p.protocol;
  ctx.connection.hello = p.protocol === PROTOCOL_VERSION ? 'ok' : 'other-version';
  return ok({ protocol: PROTOCOL_VERSION, pid: process.pid, home: ctx.home, startedAt: ctx.startedAt });
};

export const subscribe: Handler<'subscribe'> = (_p, ctx) => {
  const c = ctx.connection;
  c.unsubscribe ??= ctx.events.on((event) => c.send({ kind: 'event', event }));
  return ok({});
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

export const detach: Handler<'detach'> = (_p, ctx) => {
  ctx.connection.detach();
  return ok({});
};
