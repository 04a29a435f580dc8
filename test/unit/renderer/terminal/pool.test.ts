// The pure parts of the window's terminal pool: the LRU that bounds the live terminals (the oldest
// shown goes first, never the one just shown), and the ledger of output acknowledgements (a view
// holding its agent back acknowledges once parsed; letting go settles every debt at once, and nothing
// is acknowledged twice).
import { describe, expect, it } from 'vitest';
import { AckLedger } from '../../../../renderer/terminal/ack-ledger.js';
import { Lru } from '../../../../renderer/terminal/lru.js';

describe('Lru', () => {
  it('evicts the least recently used keys past its capacity, oldest first', () => {
    const lru = new Lru<string>(3);
    expect(lru.use('a')).toEqual([]);
    expect(lru.use('b')).toEqual([]);
    expect(lru.use('c')).toEqual([]);
    // Using `a` again makes it the newest: `b` is now the oldest.
    expect(lru.use('a')).toEqual([]);
    expect(lru.use('d')).toEqual(['b']);
    expect(lru.keys()).toEqual(['c', 'a', 'd']);
    expect(lru.has('b')).toBe(false);
    lru.delete('a');
    expect(lru.use('e')).toEqual([]);
    expect(lru.keys()).toEqual(['c', 'd', 'e']);
  });

  it('never evicts the key just used, even at capacity one', () => {
    const lru = new Lru<number>(1);
    lru.use(1);
    expect(lru.use(2)).toEqual([1]);
    expect(lru.use(2)).toEqual([]);
    expect(lru.keys()).toEqual([2]);
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});

describe('AckLedger', () => {
  it('while holding, acknowledges output only once parsed, each receipt once', () => {
    const l = new AckLedger();
    const a = l.received(100);
    const b = l.received(50);
    expect(a.ackNow + b.ackNow).toBe(0);
    expect(l.outstanding).toBe(150);
    expect(l.done(a.receipt)).toBe(100);
    expect(l.done(a.receipt)).toBe(0);
    expect(l.outstanding).toBe(50);
  });

  it('letting go acknowledges every debt at once and later output on arrival; the parse callbacks then owe nothing', () => {
    const l = new AckLedger();
    const a = l.received(70_000);
    const b = l.received(60_000);
    expect(l.release()).toBe(130_000);
    expect(l.outstanding).toBe(0);
    expect(l.done(a.receipt)).toBe(0);
    const c = l.received(10);
    expect(c.ackNow).toBe(10);
    expect(l.done(c.receipt)).toBe(0);
    expect(l.done(b.receipt)).toBe(0);
    // Holding again: new output waits for its parse.
    l.hold();
    const d = l.received(5);
    expect(d.ackNow).toBe(0);
    expect(l.done(d.receipt)).toBe(5);
  });

  it('a new attachment owes nothing: receipts of the old one acknowledge nothing', () => {
    const l = new AckLedger();
    const a = l.received(9);
    l.reset();
    expect(l.outstanding).toBe(0);
    expect(l.done(a.receipt)).toBe(0);
  });
});
