// session_state.md's growth (state-growth.ts): the sections sized and named biggest first, one
// notice past the size set, again only once the file was back under it.
import { describe, expect, it } from 'vitest';
import { growthStep, growthWords, sectionSizes } from '../../../main/supervisor/resume/state-growth.js';

const FIXTURE = `# Session State

## Current Task
- write the parser

## Context
${'- a note that belongs in the work log\n'.repeat(40)}
## Decisions
${'- decided\n'.repeat(20)}
\`\`\`
## not a heading inside a fence
\`\`\`

## Next Steps
1. handle escaped quotes
`;

describe('sectionSizes', () => {
  it('sizes each ## section with its heading and body, biggest first, a fenced ## inside its section', () => {
    const s = sectionSizes(FIXTURE);
    expect(s.map((x) => x.title)).toEqual(['Context', 'Decisions', 'Next Steps', 'Current Task']);
    expect(s[0]!.bytes).toBe('## Context\n'.length + 40 * '- a note that belongs in the work log\n'.length + 1);
    expect(s.reduce((n, x) => n + x.bytes, 0)).toBeLessThanOrEqual(Buffer.byteLength(FIXTURE) + 1);
  });
});

describe('growthStep', () => {
  it('one notice past the size, none while noticed, re-armed back under it', () => {
    expect(growthStep(20_000, 16_384, false)).toEqual({ kind: 'notice' });
    expect(growthStep(40_000, 16_384, true)).toEqual({ kind: 'none' });
    expect(growthStep(16_384, 16_384, true)).toEqual({ kind: 'rearm' });
    expect(growthStep(1_000, 16_384, false)).toEqual({ kind: 'none' });
  });
});

it('growthWords names the size, the limit and the three sections that grew most', () => {
  const words = growthWords(42_000, 16_384, sectionSizes(FIXTURE));
  expect(words).toBe(
    'SESSION NOTE - session_state.md is 41 KiB, past the 16 KiB set (settings.json resume.stateFileNoticeBytes); grew most: Context (1 KiB), Decisions (255 B), Next Steps (40 B). Keep it to where things stand: move what is done to work_log.md',
  );
});
