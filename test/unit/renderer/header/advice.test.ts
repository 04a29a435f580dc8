// The window header's advice (common/session-view.ts): each state that needs the person or waits gets
// its sentence and the actions that fix it; a numbered menu on the agent's screen is read as its
// choices and numbered prose is not; the install command is taken from the agent-missing message.
import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../../common/ipc.js';
import { clockWords, countdownWords, headerAdvice, installCommandOf, menuChoices } from '../../../../common/session-view.js';
import { row } from '../../../support/session-rows.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const info = (over: Partial<LiveSession>): LiveSession => row('s', over).info;
const attention = (reason: string): LiveSession => info({ state: 'attention', intent: { kind: 'attention', reason }, pid: null });

describe('headerAdvice', () => {
  it('a usage limit says when it resumes and offers Resume now and Don\'t resume', () => {
    const resumeAt = NOW + 50 * 60_000;
    const a = headerAdvice(info({ state: 'limited', usageLimit: { detectedAt: NOW, resetAt: resumeAt - 1000, resumeAt, source: 'screen', text: 'limit text', retries: 0 } }), null, NOW);
    expect(a).toMatchObject({ sentence: `Usage limit: resumes at ${clockWords(resumeAt)}.`, actions: ['resume-now', 'dont-resume'], detail: 'limit text' });
    const retry = headerAdvice(info({ state: 'limited', usageLimit: { detectedAt: NOW, resetAt: null, resumeAt, source: 'screen', text: '', retries: 1 } }), null, NOW);
    expect(retry?.sentence).toBe(`Usage limit: next try at ${clockWords(resumeAt)}.`);
  });

  it('needs input asks with the prompt from the screen and a reply; a crash loop shows the last output and Restart; an API error its last output', () => {
    expect(headerAdvice(info({ activity: 'needs-input' }), null, NOW)).toMatchObject({ actions: ['reply'], screen: 'prompt', tone: 'warn' });
    expect(headerAdvice(attention('crash-loop'), null, NOW)).toMatchObject({ actions: ['restart'], screen: 'last-output', tone: 'bad' });
    // At its API error through every nudge: its agent still runs (a start would do nothing); the words and its last output say what to fix.
    expect(headerAdvice(attention('api-error'), 'the agent stayed at its API error for 1h 3m through 6 nudges', NOW)).toMatchObject({ actions: [], screen: 'last-output', tone: 'bad', detail: 'the agent stayed at its API error for 1h 3m through 6 nudges' });
  });

  it('agent-missing carries the install command to copy; needs-trust opens the checks; state-invalid opens the file the window edits', () => {
    const missing = headerAdvice(attention('agent-missing'), 'the agent\'s program "claude" was not found (not on PATH, nor set by MORI_AGENT_BIN_CLAUDE); install it: npm install -g @anthropic-ai/claude-code', NOW);
    expect(missing).toMatchObject({ actions: ['copy-install', 'restart'], detail: 'npm install -g @anthropic-ai/claude-code' });
    expect(headerAdvice(attention('needs-trust'), 'untrusted', NOW)?.actions).toEqual(['review-trust']);
    // The terminal's hint gives way to the header's button; the rest of the daemon's words stay.
    const words = 'the agent command `claude` is not approved; nothing was started. Approve it with `mori trust api`';
    expect(headerAdvice(attention('needs-trust'), words, NOW)?.detail).toBe('the agent command `claude` is not approved; nothing was started.');
    expect(headerAdvice(attention('state-invalid'), 'environment.md: bad', NOW)).toMatchObject({ actions: ['open-state-file', 'restart'], detail: 'environment.md: bad' });
    // session.json is not a file the window edits: no button that would open another one.
    expect(headerAdvice(attention('state-invalid'), '/p/.mori/s/session.json: agent.sessionId: bad', NOW)?.actions).toEqual(['restart']);
    expect(headerAdvice(attention('launch-failed'), 'spawn failed', NOW)).toMatchObject({ sentence: 'Needs attention: launch-failed.', actions: ['restart'], detail: 'spawn failed' });
  });

  it('a backoff counts down to its next attempt; a quiet running session has nothing to say', () => {
    expect(headerAdvice(info({ state: 'backoff', nextAttemptAt: NOW + 12_000 }), null, NOW)?.sentence).toBe(`Restarting the agent in 12 s (at ${clockWords(NOW + 12_000)}).`);
    expect(headerAdvice(info({}), null, NOW)).toBeNull();
    expect(headerAdvice(info({ state: 'stopped', pid: null, intent: { kind: 'user-stopped' } }), null, NOW)).toBeNull();
  });
});

describe('countdownWords, installCommandOf, menuChoices', () => {
  it('counts seconds under two minutes, then minutes', () => {
    expect(countdownWords(NOW + 500, NOW)).toBe('in 1 s');
    expect(countdownWords(NOW + 119_000, NOW)).toBe('in 119 s');
    expect(countdownWords(NOW + 600_000, NOW)).toBe('in 10 min');
    expect(countdownWords(NOW - 1, NOW)).toBe('now');
  });

  it('takes the command after "install it:", and nothing from another message', () => {
    expect(installCommandOf('… install it: pip install aider')).toBe('pip install aider');
    expect(installCommandOf('something else')).toBeNull();
  });

  it('reads a numbered menu from the screen, and not numbered text that is no menu', () => {
    expect(menuChoices([' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', ' Esc to cancel'])).toEqual([
      { key: '1', label: 'Yes' },
      { key: '2', label: 'No' },
    ]);
    expect(menuChoices(['2. Second', '3. Third'])).toEqual([]);
    expect(menuChoices(['1. only one'])).toEqual([]);
  });
});
