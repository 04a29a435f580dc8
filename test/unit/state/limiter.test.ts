// The counting limiter (main/state/limiter.ts): at most `max` tasks at once, the rest in arrival
// order, and a hold under which no further task starts while those running go on.
import { describe, expect, it } from 'vitest';
import { Limiter } from '../../../main/state/limiter.js';

/** A task that runs until `finish` is called, noting when it started. */
function gate(started: string[], name: string): { task: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Limiter', () => {
  it('runs at most max tasks at once, the rest in the order they came', async () => {
    const limiter = new Limiter(2);
    const started: string[] = [];
    const gates = ['a', 'b', 'c', 'd'].map((n) => gate(started, n));
    const runs = gates.map((g) => limiter.run(g.task));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(limiter.queued).toBe(2);
    gates[1]?.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const g of gates) g.finish();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c', 'd']);
    expect(limiter.active).toBe(0);
  });

  it('starts nothing while held, lets running tasks finish, and starts the waiting ones in order once released', async () => {
    const limiter = new Limiter(2);
    const started: string[] = [];
    const a = gate(started, 'a');
    const runA = limiter.run(a.task);
    await settle();
    const release = limiter.hold();
    const later = ['b', 'c', 'd'].map((n) => gate(started, n));
    const runs = later.map((g) => limiter.run(g.task));
    await settle();
    // A slot is free, but the hold keeps b waiting; a goes on and ends, and still nothing starts.
    expect(started).toEqual(['a']);
    a.finish();
    expect(await runA).toBe('a');
    await settle();
    expect(started).toEqual(['a']);
    expect(limiter.active).toBe(0);
    release();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    // A second release changes nothing: still two at once.
    release();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const g of later) g.finish();
    expect(await Promise.all(runs)).toEqual(['b', 'c', 'd']);
    expect(limiter.active).toBe(0);
  });

  it('waits for every hold to be released', async () => {
    const limiter = new Limiter(1);
    const started: string[] = [];
    const first = limiter.hold();
    const second = limiter.hold();
    const g = gate(started, 'a');
    const run = limiter.run(g.task);
    first();
    await settle();
    expect(started).toEqual([]);
    second();
    await settle();
    expect(started).toEqual(['a']);
    g.finish();
    expect(await run).toBe('a');
  });
});
