// The resume prompt's budget (resume-prompt.ts): it never passes it, keeps the instructions, failing
// checks, task and next steps first, and names every section it cut, so the agent reads them in the
// state files instead of missing them.
import { describe, expect, it } from 'vitest';
import type { CheckResultRecord } from '../../../../common/session.js';
import { buildResumePrompt, RESUME_PROMPT_BUDGET, type ResumePromptInput } from '../../../../main/supervisor/resume/resume-prompt.js';

const many = (what: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${what} ${i + 1}: ${'x'.repeat(60)}`);

const failing: CheckResultRecord = { id: 'c1', kind: 'command', target: 'npm test', status: 'fail', durationMs: 900, detail: 'exit 1', outputTail: 'FAIL parser.test.ts\nexpected 3, got 2', source: 'environment.md' };

function input(over: Partial<ResumePromptInput['state']> = {}, log = 3): ResumePromptInput {
  return {
    sessionName: 'parser',
    stateDir: '/p/.mori/parser',
    state: { task: ['write the parser'], filesTouched: ['src/parser.ts'], lastWorkingState: null, context: [], nextSteps: ['handle escaped quotes'], decisions: ['tokens are byte offsets'], contextFiles: [], ...over },
    recentLog: Array.from({ length: log }, (_, i) => ({ heading: `2026-12-01 10:0${i}`, at: null, lines: [`step ${i + 1}`] })),
    gitChanged: ['src/parser.ts'],
    interruption: { reason: 'a crash', awayMs: 60_000 },
    verification: [failing],
  };
}

describe('buildResumePrompt', () => {
  it('a prompt that fits is whole and names nothing cut', () => {
    const p = buildResumePrompt(input());
    for (const part of ['Current task:', 'write the parser', 'Next steps:', 'Decisions (do not re-argue):', 'src/parser.ts (changed, uncommitted)', 'FAIL: command npm test', 'step 1']) expect(p).toContain(part);
    expect(p).not.toMatch(/Cut to keep this prompt short/);
  });

  it('an overgrown state stays within the budget, keeps what matters and names each section it cut', () => {
    const p = buildResumePrompt(input({ context: many('context', 80), decisions: many('decision', 60), nextSteps: ['handle escaped quotes', ...many('step', 10)] }, 40));
    expect(p.length).toBeLessThanOrEqual(RESUME_PROMPT_BUDGET);
    for (const part of ['write the parser', 'handle escaped quotes', 'FAIL: command npm test', 'expected 3, got 2']) expect(p).toContain(part);
    const note = /Cut to keep this prompt short: (.*); read them in the state files\.\n$/.exec(p);
    expect(note, p.slice(-400)).not.toBeNull();
    expect(note![1]).toMatch(/Context \((all 80 lines|\d+ of 80 lines)\)/);
    expect(note![1]).toMatch(/Recent work log \((all 80 lines|\d+ of 80 lines)\)/);
    expect(note![1]).not.toMatch(/Current task|Next steps/);
  });

  it('a small budget is kept to the character, the note included', () => {
    for (const budget of [600, 1_000, 2_000]) {
      const p = buildResumePrompt({ ...input({ context: many('context', 20), decisions: many('decision', 20) }, 10), budget });
      expect(p.length).toBeLessThanOrEqual(budget);
      expect(p).toMatch(/Cut to keep this prompt short: .*Context/);
    }
  });
});
