// Two abort signals joined for one run of checks or one notice: aborted by the first source with its
// reason, and — released — leaving nothing behind in a source that lives as long as the process
// (Node 20's AbortSignal.any() keeps a reference per call in each source, for ever).
import { getEventListeners } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { withShutdown } from '../../main/checks/in-flight.js';
import { probeDns, probeHttp, probeTcp } from '../../main/checks/probe-network.js';
import { joinSignals, onAbort } from '../../main/joined-signal.js';

/** What a source holds of the signals joined to it: its abort listeners, and AbortSignal.any()'s dependants where Node keeps them. */
function held(source: AbortSignal): number {
  const dependants = Object.getOwnPropertySymbols(source).find((s) => s.description === 'kDependantSignals');
  const set = dependants === undefined ? undefined : (source as unknown as Record<symbol, Set<unknown> | undefined>)[dependants];
  return getEventListeners(source, 'abort').length + (set?.size ?? 0);
}

/** As many joins as a night of faults makes verifications. */
const JOINS = 10_000;
/** More than Node's 10 listeners a signal may hold before it warns of a leak: twenty sessions resumed at a wake. */
const AT_ONCE = 20;

describe('joinSignals', () => {
  it('is aborted by whichever source aborts first, with its reason', () => {
    const a = new AbortController();
    const b = new AbortController();
    const j = joinSignals(a.signal, b.signal);
    expect(j.signal.aborted).toBe(false);
    b.abort(new Error('b first'));
    expect(j.signal.aborted).toBe(true);
    expect((j.signal.reason as Error).message).toBe('b first');
    a.abort(new Error('a later'));
    expect((j.signal.reason as Error).message).toBe('b first');
    // A source aborted already: the joined signal is born aborted.
    expect(joinSignals(a.signal, new AbortController().signal).signal.reason).toBe(a.signal.reason);
  });

  it('leaves nothing in a long-lived source once released, however many joins', () => {
    const longLived = new AbortController();
    for (let i = 0; i < JOINS; i++) joinSignals(new AbortController().signal, longLived.signal).release();
    expect(held(longLived.signal)).toBe(0);
    // Not released: it still hears the source.
    const j = joinSignals(new AbortController().signal, longLived.signal);
    longLived.abort();
    expect(j.signal.aborted).toBe(true);
  });
});

describe('onAbort', () => {
  it('hears a signal through one listener however many hear it at once, removed with the last', () => {
    const source = new AbortController();
    const heard: number[] = [];
    const stops = Array.from({ length: AT_ONCE }, (_, i) => onAbort(source.signal, () => heard.push(i)));
    expect(getEventListeners(source.signal, 'abort')).toHaveLength(1);
    stops[0]?.();
    stops[0]?.(); // idempotent
    for (const stop of stops.slice(1, AT_ONCE / 2)) stop();
    expect(getEventListeners(source.signal, 'abort')).toHaveLength(1);
    source.abort();
    expect(heard).toEqual(Array.from({ length: AT_ONCE / 2 }, (_, i) => AT_ONCE / 2 + i));
    expect(getEventListeners(source.signal, 'abort')).toHaveLength(0);
    for (const stop of stops) stop();
    // Stopped one by one, the last takes the listener away.
    const other = new AbortController();
    const more = Array.from({ length: AT_ONCE }, () => onAbort(other.signal, () => undefined));
    for (const stop of more) stop();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('a hearer that throws does not keep the others from hearing', async () => {
    const source = new AbortController();
    const heard: string[] = [];
    const thrown = new Promise<unknown>((resolve) => {
      const prior = process.listeners('uncaughtException');
      process.removeAllListeners('uncaughtException');
      process.once('uncaughtException', (err) => {
        for (const l of prior) process.on('uncaughtException', l);
        resolve(err);
      });
    });
    onAbort(source.signal, () => {
      throw new Error('a hearer failed');
    });
    onAbort(source.signal, () => heard.push('second'));
    source.abort();
    expect(heard).toEqual(['second']);
    expect(((await thrown) as Error).message).toBe('a hearer failed');
  });
});

describe('joinSignals at once', () => {
  it('holds one listener on a source however many joins are open at once, and each hears its abort', () => {
    const longLived = new AbortController();
    const joins = Array.from({ length: AT_ONCE }, () => joinSignals(new AbortController().signal, longLived.signal));
    expect(getEventListeners(longLived.signal, 'abort')).toHaveLength(1);
    joins[0]?.release();
    longLived.abort(new Error('stop'));
    expect(joins.slice(1).every((j) => j.signal.aborted && (j.signal.reason as Error).message === 'stop')).toBe(true);
    expect(joins[0]?.signal.aborted).toBe(false);
  });
});

describe('withShutdown', () => {
  it('holds one listener on the process-wide cancel while many verifications run at once', () => {
    const processWide = withShutdown().signal;
    const before = getEventListeners(processWide, 'abort').length;
    const open = Array.from({ length: AT_ONCE }, () => withShutdown(new AbortController().signal));
    expect(getEventListeners(processWide, 'abort').length).toBeLessThanOrEqual(Math.max(before, 1));
    for (const j of open) j.release();
    expect(getEventListeners(processWide, 'abort').length).toBe(before);
  });

  it("leaves nothing in the process-wide cancel once each verification's signal is released", () => {
    const processWide = withShutdown().signal;
    const before = held(processWide);
    for (let i = 0; i < JOINS; i++) withShutdown(new AbortController().signal).release();
    expect(held(processWide)).toBe(before);
  });
});

describe('network probes', () => {
  it("leave nothing in the verification's signal they all share, however many ran", async () => {
    const server = net.createServer((c) => c.destroy());
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
    try {
      const shared = new AbortController();
      for (let round = 0; round < 10; round++) {
        const rs = await Promise.all([
          ...Array.from({ length: AT_ONCE }, () => probeTcp(`127.0.0.1:${port}`, 5000, shared.signal)),
          probeHttp(`http://127.0.0.1:${port}/`, 5000, shared.signal),
          probeDns('localhost', 5000, shared.signal),
        ]);
        expect(rs[0]?.status).toBe('pass');
      }
      expect(held(shared.signal)).toBe(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
