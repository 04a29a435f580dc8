// The tests' wait (testkit/until.ts): it resolves once the condition holds, and otherwise fails
// after its time naming what it waited for and the caller's detail; untilValue gives back the value
// it accepted, from a sync or an async probe.
import { describe, expect, it } from 'vitest';
import { until, untilValue } from '../../../testkit/until.js';

describe('until', () => {
  it('resolves once the condition holds', async () => {
    let n = 0;
    await until('the third poll', () => ++n >= 3, undefined, 1_000, 1);
    expect(n).toBe(3);
  });

  it('fails after its time, naming what it waited for and why', async () => {
    await expect(until('the door', () => false, () => 'it stayed shut', 30, 5)).rejects.toThrow('timed out waiting for the door; it stayed shut');
    await expect(until('the door', () => false, undefined, 30, 5)).rejects.toThrow(/^timed out waiting for the door$/);
  });

  it('untilValue returns the accepted value and names the last one it saw', async () => {
    let n = 0;
    expect(await untilValue('two', async () => ++n, (v) => v === 2, 1_000, undefined, 1)).toBe(2);
    await expect(untilValue('never', () => 7, (v) => v > 7, 30, (last) => `last: ${last}`, 5)).rejects.toThrow('timed out waiting for never; last: 7');
  });
});
