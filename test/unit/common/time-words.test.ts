// A moment in words (common/time-words.ts), the window's and the CLI's alike: how long ago in a few
// words, rounded so it does not change on every redraw; the local date and minute; both together for
// a terminal, and a text that is no time left as it was.
import { describe, expect, it } from 'vitest';
import { ago, localStamp, momentText } from '../../../common/time-words.js';

const MIN = 60_000;

describe('time words', () => {
  it('says how long ago in minutes, hours, then days', () => {
    const now = Date.UTC(2026, 11, 6, 12, 0);
    expect(ago(now - 30_000, now)).toBe('just now');
    expect(ago(now - 4 * MIN, now)).toBe('4 min ago');
    expect(ago(now - 3 * 60 * MIN, now)).toBe('3 h ago');
    expect(ago(now - 30 * 60 * MIN, now)).toBe('30 h ago');
    expect(ago(now - 72 * 60 * MIN, now)).toBe('3 d ago');
  });

  it('gives the local date and minute, and both together for a terminal', () => {
    const at = new Date(2026, 11, 6, 7, 46, 30).getTime();
    expect(localStamp(at)).toBe('2026-12-06 07:46');
    expect(momentText(new Date(at).toISOString(), at + 4 * MIN)).toBe('2026-12-06 07:46, 4 min ago');
    expect(momentText('not a time', at)).toBe('not a time');
  });
});
