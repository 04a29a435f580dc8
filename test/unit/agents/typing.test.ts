// Typing rules (main/agents/typing.ts): how a text becomes writes for each profile, how the screen is
// matched against typed text, and the one rule for prompts passed as arguments, applied by every
// profile and by command templates alike.
import { describe, expect, it } from 'vitest';
import { expandTemplate } from '../../../main/agents/command-template.js';
import { PROFILES } from '../../../main/agents/profiles.js';
import { CLAUDE_TYPING } from '../../../main/agents/claude/profile.js';
import { promptArgument, shownCount, typedWrites, type TypingRules } from '../../../main/agents/typing.js';

const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
const data = (text: string, rules: TypingRules): string[] => typedWrites(text, rules).map((w) => w.data);

describe('typedWrites', () => {
  it('claude: one bracketed paste, never a CR inside it', () => {
    expect(data('fix the tests', PROFILES.claude.typing)).toEqual(['\x1b[200~fix the tests\x1b[201~']);
    expect(data('line one\r\nline two\rthree', PROFILES.claude.typing)).toEqual(['\x1b[200~line one\nline two\nthree\x1b[201~']);
  });

  it('paste markers inside the text cannot end the paste early', () => {
    expect(data('a\x1b[201~\rb\x1b[200~c', PROFILES.claude.typing)).toEqual(['\x1b[200~a\nbc\x1b[201~']);
  });

  it('gemini: the first character alone with a pause, then the rest', () => {
    const w = typedWrites('why?', PROFILES.gemini.typing);
    expect(w).toEqual([
      { data: 'w', pauseAfterMs: PROFILES.gemini.typing.firstCharAloneMs },
      { data: 'hy?', pauseAfterMs: 0 },
    ]);
    expect(PROFILES.gemini.typing.firstCharAloneMs).toBeGreaterThan(0);
  });

  it('codex: keys, and a pause before Enter of at least its paste-burst window (~0.5 s)', () => {
    expect(data('go on', PROFILES.codex.typing)).toEqual(['go on']);
    expect(PROFILES.codex.typing.enterDelayMs).toBeGreaterThanOrEqual(500);
  });

  it('a multi-line text to a keys-mode agent (aider, codex, gemini) is pasted, so its newlines do not submit', () => {
    for (const name of ['aider', 'codex', 'gemini'] as const) {
      expect(data('first\nsecond', PROFILES[name].typing)).toEqual(['\x1b[200~first\nsecond\x1b[201~']);
    }
  });

  it('a shell gets the text as typed, lines as Enters', () => {
    expect(data('ls\nmake', PROFILES.shell.typing)).toEqual(['ls\rmake']);
  });

  it('chunks and join, for rules that ask for them', () => {
    const rules: TypingRules = { ...PROFILES.shell.typing, chunkChars: 4, chunkPauseMs: 10, multiLine: 'join' };
    expect(typedWrites('abcdefghij\n  k', rules)).toEqual([
      { data: 'abcd', pauseAfterMs: 10 },
      { data: 'efgh', pauseAfterMs: 10 },
      { data: 'ij k', pauseAfterMs: 0 },
    ]);
  });

  it('every profile has rules, and every agent that talks to an API confirms the submission', () => {
    for (const p of Object.values(PROFILES)) {
      expect(p.typing.enter).toBe('\r');
      expect(p.typing.confirm).toBe(p.apiHosts({}).length > 0 ? 'busy' : 'none');
    }
  });
});

describe('shownCount', () => {
  const nudge = 'You were interrupted (connection lost or the machine slept). Re-read .mori/s/session_state.md, then continue.';
  it('finds a text wrapped in an input box, whitespace and box lines ignored', () => {
    const screen = `│ > You were interrupted (connection lost or the machine slept). Re-read │\n│   .mori/s/session_state.md, then continue.                           │`;
    expect(shownCount(screen, nudge, CLAUDE_TYPING)).toBe(1);
    expect(shownCount(`❯ ${nudge}\n● OK.\n❯ ${nudge}`, nudge, CLAUDE_TYPING)).toBe(2);
    expect(shownCount('❯ ', nudge, CLAUDE_TYPING)).toBe(0);
  });
  it("counts claude's placeholder for a long paste", () => {
    expect(shownCount('❯ [Pasted text #1 +11 lines]', 'x\n'.repeat(12), CLAUDE_TYPING)).toBe(1);
    expect(shownCount('❯ [Pasted text #2]', 'y'.repeat(900), CLAUDE_TYPING)).toBe(1);
  });
});

describe('prompts passed as arguments', () => {
  it('one rule: a leading - gets a space', () => {
    expect(promptArgument('--help me')).toBe(' --help me');
    expect(promptArgument('fix -x')).toBe('fix -x');
  });

  it('claude, codex and gemini apply it', () => {
    const env = {};
    const args = (name: 'claude' | 'codex' | 'gemini'): string[] => {
      const r = PROFILES[name].newSession({ cwd: '/p', prompt: '-rf is not a flag', newAgentSessionId: UUID, env });
      if (!r.ok) throw new Error(r.message);
      return r.value.args;
    };
    expect(args('claude').at(-1)).toBe(' -rf is not a flag');
    expect(args('codex').at(-1)).toBe(' -rf is not a flag');
    expect(args('gemini').slice(-2)).toEqual(['-i', ' -rf is not a flag']);
  });

  it('a template applies it where {prompt} is a word of its own, not inside a longer word', () => {
    const r = expandTemplate('agent {prompt} --message={prompt}', { prompt: '-x', id: null });
    expect(r.ok && r.value).toEqual({ file: 'agent', args: [' -x', '--message=-x'] });
    const custom = PROFILES.custom.newSession({ cwd: '/p', prompt: '--version', newAgentSessionId: UUID, command: 'tool {prompt}', env: {} });
    expect(custom.ok && custom.value.args).toEqual([' --version']);
  });
});
