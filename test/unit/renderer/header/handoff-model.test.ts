// "Continue with…" decided: the agents offered (never the session's own, never a profile that runs a
// command the person gives) and the status line's words.
import { describe, expect, it } from 'vitest';
import { handedOffText, handoffChoices } from '../../../../renderer/header/handoff-model.js';

describe('handoffChoices', () => {
  it('offers every agent profile but the one the session runs', () => {
    expect(handoffChoices('claude')).toEqual(['codex', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider']);
    expect(handoffChoices('codex')).toEqual(['claude', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider']);
    // A shell session can be handed to any agent; none is offered a command line to run.
    expect(handoffChoices('shell')).toEqual(['claude', 'codex', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider']);
    expect(handoffChoices(undefined)).toEqual(['claude', 'codex', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider']);
  });
});

describe('handedOffText', () => {
  it('names the new agent and the conversation kept', () => {
    expect(handedOffText('alpha', 'claude', 'codex')).toBe("alpha continues with codex; claude's conversation is kept.");
    expect(handedOffText('alpha', undefined, 'codex')).toBe('alpha continues with codex.');
  });
});
