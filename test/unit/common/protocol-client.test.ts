// The control API's one client core (common/protocol-client.ts) over an in-memory transport: replies
// matched by id whatever their order, results checked against the method's schema, hello naming a
// daemon of another version, waiting requests answered `disconnected` when the transport closes, a
// request unanswered within its time answered `timeout` (its late reply dropped; the long methods
// wait), and the one reconnect backoff doubling to its bound.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION } from '../../../common/ipc.js';
import { LOCAL_RECONNECT_MAX_MS, LONG_METHODS, ProtocolClient, Reconnect, RECONNECT_MAX_MS, REQUEST_TIMEOUT_MS, type StreamMessage, type Transport } from '../../../common/protocol-client.js';

/** A transport whose sent requests are kept, and through which the test plays the daemon. */
function fakeTransport(): { transport: Transport; sent: { id: number; method: string; params: unknown }[]; reply: (m: unknown) => void; close: (why: string) => void } {
  const sent: { id: number; method: string; params: unknown }[] = [];
  let onFrame: (frame: string) => void = () => undefined;
  let onClose: (why: string) => void = () => undefined;
  return {
    transport: { send: (f) => void sent.push(JSON.parse(f)), onFrame: (l) => (onFrame = l), onClose: (l) => (onClose = l) },
    sent,
    reply: (m) => onFrame(JSON.stringify(m)),
    close: (why) => onClose(why),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the protocol client core', () => {
  it('matches replies to requests by id, in any order, and hands stream messages on', async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const stream: StreamMessage[] = [];
    c.onStream((m) => stream.push(m));
    const a = c.request('transcript.read', { session: 'a' });
    const b = c.request('hint.power', { kind: 'lock' });
    const [ra, rb] = t.sent;
    t.reply({ kind: 'event', event: { type: 'settings.changed', at: 1, settings: {} } });
    t.reply({ kind: 'reply', id: rb?.id, ok: true, value: { interrupted: 0 } });
    t.reply({ kind: 'reply', id: ra?.id, ok: false, code: 'not-found', message: 'no session a' });
    expect(await b).toEqual({ ok: true, value: { interrupted: 0 } });
    expect(await a).toEqual({ ok: false, code: 'not-found', message: 'no session a' });
    expect(stream).toHaveLength(1);
  });

  it("refuses a result that does not match the method's schema, with the protocol code", async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const r = c.request('hint.power', { kind: 'lock' });
    t.reply({ kind: 'reply', id: t.sent[0]?.id, ok: true, value: { interrupted: 'many' } });
    expect(await r).toMatchObject({ ok: false, code: 'protocol' });
  });

  it("hands on a listing as sent, fields its schema does not check included, and refuses one whose checked fields are off", async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const entry = {
      stateDir: '/p/.mori/a',
      ok: true,
      session: { id: 'a', name: 'a', projectDir: '/p', backend: 'direct', agent: { profile: 'shell', command: 'sh' }, intent: { kind: 'running' }, createdAt: 'then' },
      task: 'the task',
      lastLog: { heading: 'h', lines: ['l'] },
      live: null,
    };
    const good = c.request('sessions.listing', {});
    t.reply({ kind: 'reply', id: t.sent[0]?.id, ok: true, value: [entry] });
    expect(await good).toEqual({ ok: true, value: [entry] });
    const bad = c.request('sessions.listing', {});
    t.reply({ kind: 'reply', id: t.sent[1]?.id, ok: true, value: [{ ...entry, session: { ...entry.session, intent: { kind: 'flying' } } }] });
    expect(await bad).toMatchObject({ ok: false, code: 'protocol' });
  });

  it('awaits a hello and a request its transport sent ahead (ids 1 and 2) as its own, sending nothing, and numbers its next request 3', async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const ahead = c.sentAhead({ client: 'test', daemonName: 'the daemon', selfName: 'this test' }, 'hint.power');
    expect(t.sent).toEqual([]);
    t.reply({ kind: 'reply', id: 2, ok: true, value: { interrupted: 3 } });
    t.reply({ kind: 'reply', id: 1, ok: true, value: { protocol: PROTOCOL_VERSION, pid: 7, home: '/h', startedAt: 1 } });
    expect(await ahead.hello).toMatchObject({ ok: true, value: { pid: 7 } });
    expect(await ahead.results[0]).toEqual({ ok: true, value: { interrupted: 3 } });
    const next = c.request('hint.power', { kind: 'lock' });
    expect(t.sent.map((f) => f.id)).toEqual([3]);
    t.reply({ kind: 'reply', id: 3, ok: true, value: { interrupted: 0 } });
    expect(await next).toEqual({ ok: true, value: { interrupted: 0 } });
  });

  it('checks what was sent ahead as it checks its own: another version named, a result off its schema refused', async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const ahead = c.sentAhead({ client: 'test', daemonName: 'the daemon', selfName: 'this test' }, 'hint.power');
    t.reply({ kind: 'reply', id: 1, ok: true, value: { protocol: 99, pid: 4242, home: '/h', startedAt: 1 } });
    t.reply({ kind: 'reply', id: 2, ok: true, value: { interrupted: 'many' } });
    const hello = await ahead.hello;
    expect(hello.ok ? '' : hello.message).toMatch(/pid 4242\) speaks protocol 99, this test speaks 1/);
    expect(await ahead.results[0]).toMatchObject({ ok: false, code: 'protocol' });
  });

  it('says hello with its version and names a daemon of another version', async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const h = c.hello({ client: 'test', daemonName: 'the daemon', selfName: 'this test' });
    expect(t.sent[0]).toMatchObject({ method: 'hello', params: { protocol: PROTOCOL_VERSION, client: 'test' } });
    t.reply({ kind: 'reply', id: t.sent[0]?.id, ok: true, value: { protocol: 99, pid: 4242, home: '/h', startedAt: 1 } });
    const r = await h;
    expect(r).toMatchObject({ ok: false, code: 'protocol' });
    expect(r.ok ? '' : r.message).toMatch(/pid 4242\) speaks protocol 99, this test speaks 1/);
  });

  it('answers every waiting request `disconnected` when the transport closes, and later ones at once', async () => {
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const r = c.request('list', {});
    t.close('gone');
    expect(await r).toEqual({ ok: false, code: 'disconnected', message: 'gone' });
    expect(await c.request('list', {})).toEqual({ ok: false, code: 'disconnected', message: 'gone' });
    expect(c.isClosed).toBe(true);
  });

  it('answers a request with no reply within its time `timeout`, naming the method and the wait, and drops the late reply', async () => {
    vi.useFakeTimers();
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport);
    const raw: unknown[] = [];
    c.onRaw((m) => raw.push(m));
    const r = c.request('state.read', { session: 'a', file: 'session_state.md' });
    const quick = c.request('list', {});
    t.reply({ kind: 'reply', id: t.sent[1]?.id, ok: true, value: [] });
    expect(await quick).toEqual({ ok: true, value: [] });
    vi.advanceTimersByTime(REQUEST_TIMEOUT_MS - 1);
    let settled = false;
    r.then(() => (settled = true), () => undefined);
    await Promise.resolve();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    const failed = await r;
    expect(failed).toMatchObject({ ok: false, code: 'timeout' });
    expect(failed.ok ? '' : failed.message).toMatch(/^state\.read: no answer from the Mori supervisor within 30 s/);
    // The reply that comes after all is nobody's: not handed to the raw listener as someone else's.
    t.reply({ kind: 'reply', id: t.sent[0]?.id, ok: true, value: { text: '', version: 'v' } });
    expect(raw).toEqual([]);
    // The answered request left no timer behind.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes its time limit from its options; the long methods wait as long as the connection lives', async () => {
    vi.useFakeTimers();
    const t = fakeTransport();
    const c = new ProtocolClient(t.transport, { timeoutMs: 500 });
    const r = c.request('list', {});
    const long = c.request('checks.verify', { session: 'a' });
    expect(LONG_METHODS).toContain('checks.verify');
    vi.advanceTimersByTime(500);
    expect(await r).toMatchObject({ ok: false, code: 'timeout', message: expect.stringContaining('within 500 ms') });
    vi.advanceTimersByTime(10 * REQUEST_TIMEOUT_MS);
    t.reply({ kind: 'reply', id: t.sent[1]?.id, ok: true, value: { ok: true } });
    expect(await long).toEqual({ ok: true, value: { ok: true } });
    // Closing answers what still waits `disconnected` and clears its timer.
    const last = c.request('list', {});
    t.close('gone');
    expect(await last).toMatchObject({ code: 'disconnected' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('backs off from the first wait, doubling up to the bound, and starts again after a reset', () => {
    vi.useFakeTimers();
    let attempts = 0;
    const r = new Reconnect(() => attempts++, 1_000);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = Date.now();
      r.schedule();
      r.schedule(); // one attempt waits at a time
      vi.runOnlyPendingTimers();
      waits.push(Date.now() - before);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, RECONNECT_MAX_MS, RECONNECT_MAX_MS]);
    expect(attempts).toBe(5);
    r.reset();
    r.schedule();
    r.stop();
    vi.runOnlyPendingTimers();
    expect(attempts).toBe(5);
  });

  it("a daemon on this machine is tried again at least every LOCAL_RECONNECT_MAX_MS: a window is live within a second of its return", () => {
    vi.useFakeTimers();
    const r = new Reconnect(() => undefined, 250, LOCAL_RECONNECT_MAX_MS);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = Date.now();
      r.schedule();
      vi.runOnlyPendingTimers();
      waits.push(Date.now() - before);
    }
    expect(LOCAL_RECONNECT_MAX_MS).toBe(1_000);
    expect(waits).toEqual([250, 500, 1_000, 1_000, 1_000, 1_000]);
    r.stop();
  });
});
