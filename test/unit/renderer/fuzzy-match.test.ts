// The palette's fuzzy matching: the query's characters in order, any case ("fr" finds fix-refunds,
// "gtfr" finds "Go to fix-refunds"), nothing when one is missing or out of order; word starts and
// runs rank first (two word starts as high as a prefix), equal scores keep the list's order, an empty query keeps every item.
import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyMatch } from '../../../renderer/dialogs/fuzzy-match.js';

const labels = (items: string[], q: string): string[] => fuzzyFilter(items, q, (s) => s).map((r) => r.item);

describe('fuzzyMatch', () => {
  it('finds the characters in order, ignoring case, at word starts where it can', () => {
    expect(fuzzyMatch('fr', 'Go to fix-refunds')?.positions).toEqual([6, 10]);
    expect(fuzzyMatch('GTFR', 'Go to fix-refunds')).not.toBeNull();
    expect(fuzzyMatch('sf', 'Go to fix-refunds')).toBeNull();
    expect(fuzzyMatch('fz', 'Go to fix-refunds')).toBeNull();
  });

  it('ranks word starts and runs above scattered letters', () => {
    // Two word starts (an acronym) rank with a prefix; letters inside words come last.
    expect(labels(['Go to buffer-reader', 'Go to fix-refunds', 'Go to frontend'], 'fr')).toEqual(['Go to fix-refunds', 'Go to frontend', 'Go to buffer-reader']);
    expect(labels(['Go to seating', 'Settings'], 'set')).toEqual(['Settings', 'Go to seating']);
  });

  it('keeps every item in order for an empty query, and the order of equal scores', () => {
    expect(labels(['b', 'a', 'c'], '  ')).toEqual(['b', 'a', 'c']);
    expect(labels(['Go to aa-x', 'Go to bb-x'], 'x')).toEqual(['Go to aa-x', 'Go to bb-x']);
  });
});
