// Test helpers for the daemon and the web host: a control-socket client that has said hello, events
// collected from a subscription, and a `ws` adapter for common/mori-api.ts's WebSocket transport.
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { DaemonEvent, IpcMethod, IpcParams } from '../../common/ipc.js';
import type { WebSocketLike } from '../../common/mori-api.js';
import { ControlClient } from '../../main/daemon-client/control-client.js';
import { until } from '../../testkit/until.js';

/** A connected client (hello said), its events collected when `subscribe` is true. */
export async function client(home: string, subscribe = false): Promise<{ c: ControlClient; events: DaemonEvent[] }> {
  const r = await ControlClient.connect(home);
  if (!r.ok) throw new Error(r.message);
  const events: DaemonEvent[] = [];
  r.value.onStream((m) => {
    if (m.kind === 'event') events.push(m.event);
  });
  if (subscribe) expect((await r.value.request('subscribe', {})).ok).toBe(true);
  return { c: r.value, events };
}

/** A request whose success the test relies on: its value, else the test fails with the message. */
export async function call<M extends IpcMethod>(c: ControlClient, method: M, params: IpcParams<M>): Promise<Record<string, unknown>> {
  const r = await c.request(method, params);
  if (!r.ok) throw new Error(`${method}: ${r.code}: ${r.message}`);
  return r.value as Record<string, unknown>;
}

/** Waits for an event matching `match` at index `from` or later of the (growing) list. */
export function waitEvent(events: DaemonEvent[], what: string, match: (e: DaemonEvent) => boolean, from = 0): Promise<void> {
  return until(what, () => events.slice(from).some(match), () => JSON.stringify(events.slice(from).map((e) => e.type)));
}

/** The `ws` library's WebSocket as the transport's WebSocketLike, with these headers (an Origin). */
export function wsOpener(headers: Record<string, string>): (url: string) => WebSocketLike {
  return (url) => {
    const ws = new WebSocket(url, { headers });
    const like: WebSocketLike = {
      send: (d) => ws.send(d),
      close: (code, reason) => ws.close(code, reason),
      onopen: null,
      onmessage: null,
      onclose: null,
    };
    ws.on('open', () => like.onopen?.());
    ws.on('message', (d) => like.onmessage?.(d.toString()));
    ws.on('close', (code, reason) => like.onclose?.(code, reason.toString()));
    ws.on('error', () => undefined);
    return like;
  };
}
