// What the first agent is told when a session comes back to it at its reset: the other agent's work
// log entries since the hand-off (Mori's own left out) and the files changed since its checkpoint.
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import { entriesSinceHandoff, HAND_BACK_MAX_ENTRIES, HAND_BACK_MAX_FILES, handBackPreface } from '../../../../main/supervisor/resume/hand-back-words.js';
import type { WorkLogEntry } from '../../../../main/state/work-log.js';

const at = (hh: number, mm: number): Date => new Date(2026, 0, 5, hh, mm);
const entry = (d: Date, ...lines: string[]): WorkLogEntry => ({ heading: `2026-01-05 ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`, at: d, lines });
const h = { from: 'claude' as const, to: 'codex' as const, at: at(13, 2).getTime() + 30_000 };

const LOG: WorkLogEntry[] = [
  entry(at(12, 50), 'wrote the lexer'),
  entry(at(13, 2), 'CHECKPOINT - a1b2c3d: 2 files changed'),
  entry(at(13, 2), 'SESSION HANDED OFF - claude → codex (usage limit reached, resets 14:00); claude session x kept in previousIds'),
  entry(at(13, 2), 'SESSION RESUMED - after usage limit; agent started fresh with the resume prompt'),
  entry(at(13, 10), 'wrote the parser', 'tests: 12 pass'),
  entry(at(13, 20), 'CHECKPOINT - d4e5f6a: 1 file changed'),
  entry(at(13, 40), 'fixed escaped quotes'),
];

describe('entriesSinceHandoff', () => {
  it("takes the agent's entries after the hand-off's own, without Mori's", () => {
    expect(entriesSinceHandoff(LOG, h).map((e) => e.lines)).toEqual([['wrote the parser', 'tests: 12 pass'], ['fixed escaped quotes']]);
  });

  it("takes those from the hand-off's minute on when its entry is no longer read, and only after the last hand-off of the same pair", () => {
    expect(entriesSinceHandoff(LOG.slice(3), h).map((e) => e.lines[0])).toEqual(['wrote the parser', 'fixed escaped quotes']);
    const twice = [...LOG, entry(at(15, 0), 'SESSION HANDED OFF - claude → codex (usage limit reached)'), entry(at(15, 5), 'second round')];
    expect(entriesSinceHandoff(twice, h).map((e) => e.lines[0])).toEqual(['second round']);
  });
});

describe('handBackPreface', () => {
  const base = { back: PROFILES.claude, other: PROFILES.codex, otherId: '0199a1b2-0000-7000-8000-000000000001', entries: entriesSinceHandoff(LOG, h) };

  it('names the other agent, its kept conversation, its entries and the files changed', () => {
    const text = handBackPreface({ ...base, files: [{ path: 'src/parser.ts', kind: 'added', added: 40, deleted: 0, binary: false, oldMode: '000000', newMode: '100644' }] });
    expect(text).toContain('Mori handed this session back to you (Claude Code): your usage limit reset.');
    expect(text).toContain('Codex CLI worked on it (its conversation 0199a1b2-0000-7000-8000-000000000001 is kept)');
    expect(text).toContain("Codex CLI's work log entries since the hand-off:\n- 2026-01-05 13:10: wrote the parser\n-   tests: 12 pass\n- 2026-01-05 13:40: fixed escaped quotes");
    expect(text).toContain('Files changed since the hand-off:\n- src/parser.ts (added)');
    expect(text).not.toContain('CHECKPOINT');
    expect(text).not.toContain('SESSION');
  });

  it('says none when nothing was done, and why the files are not known', () => {
    const text = handBackPreface({ ...base, otherId: null, entries: [], files: null, filesUnknown: 'no checkpoints: not a git repository' });
    expect(text).toContain('entries since the hand-off:\n- none');
    expect(text).toContain('Files changed since the hand-off: not known (no checkpoints: not a git repository)');
    expect(text).not.toContain('is kept');
    expect(handBackPreface({ ...base, files: [] })).toContain('Files changed since the hand-off: none');
  });

  it('keeps the newest entries and counts the files past its bounds', () => {
    const many = Array.from({ length: HAND_BACK_MAX_ENTRIES + 3 }, (_, i) => entry(at(13, 10 + i), `step ${i}`));
    const files = Array.from({ length: HAND_BACK_MAX_FILES + 2 }, (_, i) => ({ path: `f${i}.ts`, kind: 'modified' as const, added: 1, deleted: 1, binary: false, oldMode: '100644', newMode: '100644' }));
    const text = handBackPreface({ ...base, entries: many, files });
    expect(text).toContain('- … 3 earlier in work_log.md');
    expect(text).not.toContain('step 2\n');
    expect(text).toContain(`step ${HAND_BACK_MAX_ENTRIES + 2}`);
    expect(text).toContain('- … 2 more (`mori changes` lists them)');
  });
});
