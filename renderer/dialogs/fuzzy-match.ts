// The palette's matching (DESIGN.md §13): the query's characters in order anywhere in a label
// ("fr" finds "fix-refunds"), ignoring case, scored so that the labels a person means come first —
// a character at the start of a word (after a space, "-", "_", ".", "/" or ":") or right after the
// previous match counts more, a gap costs a little. Pure: runs in the renderer and in unit tests.

/** What a matched character earns: the base, and the bonuses for a word start and for a run. */
const SCORE = { char: 1, wordStart: 8, run: 5, labelStart: 4 } as const;
/** Each skipped character costs this much (a tiebreak: shorter gaps first, never more than a bonus). */
const GAP_COST = 0.1;

const isBoundary = (c: string | undefined): boolean => c === undefined || /[\s\-_./:]/.test(c);

export interface FuzzyMatch {
  score: number;
  /** The indices of the label's matched characters, for marking them. */
  positions: number[];
}

/**
 * The best-scoring way the query's characters appear in order in `label`, or null when they do not.
 * Greedy from each place the first character could match, each later character taken at its next
 * word start when there is one before the next plain occurrence would end the run.
 */
export function fuzzyMatch(query: string, label: string): FuzzyMatch | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (q === '') return { score: 0, positions: [] };
  const l = label.toLowerCase();
  let best: FuzzyMatch | null = null;
  for (let start = l.indexOf(q[0] as string); start >= 0; start = l.indexOf(q[0] as string, start + 1)) {
    const m = matchFrom(q, l, start);
    if (m && (best === null || m.score > best.score)) best = m;
  }
  return best;
}

function matchFrom(q: string, l: string, start: number): FuzzyMatch | null {
  const positions = [start];
  for (let i = 1; i < q.length; i++) {
    const prev = positions[i - 1] as number;
    const c = q[i] as string;
    const next = l.indexOf(c, prev + 1);
    if (next < 0) return null;
    // Right after the previous match keeps the run; otherwise prefer the next word start holding it.
    let at = next;
    if (next !== prev + 1) {
      for (let k = next; k < l.length; k++) {
        if (l[k] === c && isBoundary(l[k - 1])) {
          at = k;
          break;
        }
      }
    }
    positions.push(at);
  }
  let score = 0;
  positions.forEach((p, i) => {
    score += SCORE.char;
    if (p === 0) score += SCORE.labelStart;
    if (isBoundary(l[p - 1])) score += SCORE.wordStart;
    if (i > 0 && p === (positions[i - 1] as number) + 1) score += SCORE.run;
    if (i > 0) score -= GAP_COST * (p - (positions[i - 1] as number) - 1);
  });
  return { score, positions };
}

/** The items whose label matches, best first; equal scores keep the items' order. All of them, in order, for an empty query. */
export function fuzzyFilter<T>(items: readonly T[], query: string, label: (item: T) => string): { item: T; positions: number[] }[] {
  const scored = items.flatMap((item, index) => {
    const m = fuzzyMatch(query, label(item));
    return m ? [{ item, positions: m.positions, score: m.score, index }] : [];
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map(({ item, positions }) => ({ item, positions }));
}
