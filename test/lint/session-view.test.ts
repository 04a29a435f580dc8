// One definition of how a session reads (common/session-view.ts): no other product file holds a
// table of state words, an order of sessions by need, or its own copy of the functions that decide
// them. A second copy is how the tray, the window and `mori ls` came to disagree; this test finds
// one by the literals and names such a copy cannot do without.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

const OWNER = 'common/session-view.ts';

/** What gives a copy away, each with what it would be a copy of. */
const COPIES: { pattern: RegExp; what: string }[] = [
  { pattern: /['"](needs input|crash loop|verification failed|usage limit)['"]/, what: 'a state word as a string literal' },
  { pattern: /(?<!Partial<)Record<(AgentActivity|LiveSession\['activity'\]|RuntimeState|Level|DisplayState|StateWord)\s*,\s*(string|number)>/, what: 'a table of words or ranks by state, activity or level' },
  { pattern: /\bfailing:\s*0\b/, what: 'an order of levels' },
  { pattern: /\b(function|const|let)\s+(sessionStatus|stateWord|preciseState|displayState|worstLevel|orderSessions|needsPerson|attentionKind|activityWords|lifecycleWords|LEVEL_ORDER|LEVELS|RANK|ACTIVITY_WORDS)\b/, what: 'a second definition of a session-view function or table' },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

/** `file:line: what` for every line outside the owner that looks like a copy. */
function copiesIn(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const rel = path.relative(REPO, file);
    if (rel === OWNER) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const c of COPIES) if (c.pattern.test(line)) found.push(`${rel}:${i + 1}: ${c.what}`);
      });
  }
  return found;
}

describe('how a session reads', () => {
  it(`is defined only in ${OWNER}`, () => {
    const files = ['common', 'main', 'renderer', 'preload'].flatMap((d) => sourceFiles(path.join(REPO, d)));
    expect(copiesIn(files)).toEqual([]);
  });

  it('recognises the copies the tray, the window and `mori ls` used to hold', () => {
    const lines = [
      "const ACTIVITY_WORDS: Record<LiveSession['activity'], string> = {",
      "const LEVEL_ORDER: Record<Level, number> = { failing: 0, 'needs-you': 1, working: 2, ok: 3 };",
      "  'needs input': 0,",
      'export function displayState(s: Pick<LiveSession, "state" | "activity">): DisplayState {',
    ];
    for (const line of lines) expect(COPIES.some((c) => c.pattern.test(line)), line).toBe(true);
    expect(COPIES.some((c) => c.pattern.test('  settleMsFor?: Partial<Record<AgentActivity, number>>;'))).toBe(false);
  });
});
