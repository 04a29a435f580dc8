// The resume policy's decision (resume-choice.ts): by id or fresh from the mode, the conversation's
// last context and the share of the window; the words the work log gives; the ids a fresh start
// leaves behind.
import { describe, expect, it } from 'vitest';
import { SessionRecord } from '../../../../common/session.js';
import { DaemonSettings } from '../../../../common/daemon-settings.js';
import { chooseResume, formatTokens, resumeModeOf } from '../../../../main/supervisor/resume/resume-choice.js';
import { leaveBehind, PREVIOUS_IDS_KEPT } from '../../../../main/supervisor/session/previous-ids.js';

const WINDOW = 200_000;

describe('chooseResume', () => {
  it('auto: fresh at the share of the window and above, by id under it, with the figures', () => {
    expect(chooseResume('auto', 60, { lastContextTokens: 151_234, contextWindow: WINDOW })).toEqual({ kind: 'fresh', why: 'the conversation held 151k tokens (76 % of 200k)' });
    expect(chooseResume('auto', 60, { lastContextTokens: 120_000, contextWindow: WINDOW }).kind).toBe('fresh');
    expect(chooseResume('auto', 60, { lastContextTokens: 119_999, contextWindow: WINDOW })).toEqual({ kind: 'by-id', why: 'the conversation held 120k tokens (60 % of 200k)' });
    expect(chooseResume('auto', 90, { lastContextTokens: 151_000, contextWindow: WINDOW }).kind).toBe('by-id');
  });

  it('auto: an unknown size or window resumes by id', () => {
    expect(chooseResume('auto', 60, undefined)).toEqual({ kind: 'by-id', why: "the conversation's size is not known" });
    expect(chooseResume('auto', 60, { lastContextTokens: 900_000, contextWindow: undefined })).toEqual({ kind: 'by-id', why: "the conversation held 900k tokens, the model's window is not known" });
    expect(chooseResume('auto', 60, { lastContextTokens: 900_000, contextWindow: 0 }).kind).toBe('by-id');
  });

  it('by-id and fresh hold whatever the size', () => {
    const huge = { lastContextTokens: 199_000, contextWindow: WINDOW };
    expect(chooseResume('by-id', 60, huge)).toEqual({ kind: 'by-id', why: 'the session resumes by id' });
    expect(chooseResume('fresh', 60, { lastContextTokens: 10, contextWindow: WINDOW })).toEqual({ kind: 'fresh', why: 'the session resumes fresh' });
  });
});

it('formatTokens', () => {
  expect([950, 1_499, 151_234, 999_499, 1_048_576].map(formatTokens)).toEqual(['950', '1k', '151k', '999k', '1.0M']);
});

describe('the mode', () => {
  const file = (extra: object): SessionRecord =>
    SessionRecord.parse({ schemaVersion: 1, id: '6f1c1b0e-6a4f-4b8e-9a57-1d2c3b4a5f60', name: 'a', projectDir: '/p', createdAt: 'x', agent: { profile: 'claude' }, backend: 'direct', ...extra });

  it("the session's own, else the daemon's (default auto, 60 %)", () => {
    const defaults = DaemonSettings.parse({}).resume;
    expect(defaults).toMatchObject({ mode: 'auto', contextSharePercent: 60 });
    expect(resumeModeOf(file({}), defaults)).toBe('auto');
    expect(resumeModeOf(file({}), { ...defaults, mode: 'fresh' })).toBe('fresh');
    expect(resumeModeOf(file({ resume: 'by-id' }), { ...defaults, mode: 'fresh' })).toBe('by-id');
  });

  it('a session.json naming no mode nor earlier ids reads as before; a wrong mode is refused by name', () => {
    expect(file({}).agent.previousIds).toEqual([]);
    const bad = SessionRecord.safeParse({ ...file({}), resume: 'sometimes' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['resume']);
  });
});

describe('leaveBehind', () => {
  const agent = { profile: 'claude' as const, sessionId: 'b', cwd: null, previousIds: ['a'] };

  it('keeps the old id last, once, and nothing for no id', () => {
    expect(leaveBehind(agent, 'b').previousIds).toEqual(['a', 'b']);
    expect(leaveBehind({ ...agent, previousIds: ['b', 'a'] }, 'b').previousIds).toEqual(['a', 'b']);
    expect(leaveBehind(agent, null)).toBe(agent);
  });

  it('drops the oldest past the bound, so session.json stays valid', () => {
    const many = Array.from({ length: PREVIOUS_IDS_KEPT }, (_, i) => `id${i}`);
    const next = leaveBehind({ ...agent, previousIds: many }, 'new').previousIds;
    expect(next).toHaveLength(PREVIOUS_IDS_KEPT);
    expect(next[0]).toBe('id1');
    expect(next.at(-1)).toBe('new');
  });
});
