// Two abort signals joined for one run of checks or one notice: aborted by the first source with its
// reason, and — released — leaving nothing behind in a source that lives as long as the process
// (Node 20's AbortSignal.any() keeps a reference per call in each source, for ever).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withShutdown } from '../../main/checks/in-flight.js';
import { joinSignals } from '../../main/joined-signal.js';

/** What a source holds of the signals joined to it: its abort listeners, and AbortSignal.any()'s dependants where Node keeps them. */
function held(source: AbortSignal): number {
  const dependants = Object.getOwnPropertySymbols(source).find((s) => s.description === 'kDependantSignals');
  const set = dependants === undefined ? undefined : (source as unknown as Record<symbol, Set<unknown> | undefined>)[dependants];
  return getEventListeners(source, 'abort').length + (set?.size ?? 0);
}

/** As many joins as a night of faults makes verifications. */
const JOINS = 10_000;

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

describe('withShutdown', () => {
  it("leaves nothing in the process-wide cancel once each verification's signal is released", () => {
    const processWide = withShutdown().signal;
    const before = held(processWide);
    for (let i = 0; i < JOINS; i++) withShutdown(new AbortController().signal).release();
    expect(held(processWide)).toBe(before);
  });
});
