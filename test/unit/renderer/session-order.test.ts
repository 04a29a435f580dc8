// The window's pure parts: the one word a session's state reads as, the order that puts what needs
// the person first, and which daemon events become notices.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../common/ipc.js';
import { noticeFor } from '../../../renderer/notices/notices.js';
import { plainText } from '../../../renderer/terminal/plain-text.js';
import { orderSessions, stateWord } from '../../../common/session-view.js';

const s = (name: string, state: string, activity = 'unknown', failingChecks = 0) => ({ name, state, activity, failingChecks }) as Parameters<typeof stateWord>[0] & { name: string; failingChecks: number };

describe('the sessions list', () => {
  it("reads a running session by its agent's activity, and any other by its lifecycle", () => {
    expect(stateWord(s('a', 'running', 'needs-input'))).toBe('needs input');
    expect(stateWord(s('a', 'running', 'working'))).toBe('working');
    expect(stateWord(s('a', 'running'))).toBe('running');
    expect(stateWord(s('a', 'backoff', 'working'))).toBe('interrupted');
    expect(stateWord(s('a', 'attention'))).toBe('attention');
  });

  it('puts needs input first, then attention and errors, failing checks before passing ones, stopped last', () => {
    const order = orderSessions([
      s('stopped', 'stopped'),
      s('busy', 'running', 'working'),
      s('quiet', 'running', 'waiting'),
      s('failing', 'running', 'waiting', 2),
      s('asks', 'running', 'needs-input'),
      s('loop', 'attention'),
    ]).map((x) => x.name);
    expect(order).toEqual(['asks', 'loop', 'failing', 'quiet', 'busy', 'stopped']);
  });
});

describe('notices', () => {
  const base = { at: 1, sessionId: 'id', name: 'api' };
  it('come from failed verifications, needs input, crash loops and resumes, not from bookkeeping', () => {
    expect(noticeFor({ type: 'verify.finished', ...base, ok: false, summary: 'checks 1/2 passed' } as DaemonEvent)?.kind).toBe('verify-failed');
    expect(noticeFor({ type: 'verify.finished', ...base, ok: true, summary: 'checks 2/2 passed' } as DaemonEvent)).toBeNull();
    expect(noticeFor({ type: 'session.activity', ...base, from: 'working', to: 'needs-input' } as DaemonEvent)?.title).toBe('api needs input');
    expect(noticeFor({ type: 'session.attention', ...base, reason: 'crash-loop', message: 'crashed 5 times' } as DaemonEvent)?.kind).toBe('crash-loop');
    expect(noticeFor({ type: 'session.resumed', ...base, launch: 'resume' } as DaemonEvent)?.kind).toBe('resumed');
    const handedOff = noticeFor({ type: 'session.handedOff', ...base, from: 'claude', to: 'codex', reason: 'usage limit reached' } as DaemonEvent);
    expect(handedOff).toMatchObject({ kind: 'handed-off', title: 'api continues with codex', body: 'Handed over from claude: usage limit reached.' });
    const over = noticeFor({ type: 'session.contextOver', ...base, share: 0.84, warn: 0.8, model: 'claude-sonnet-4-5' } as DaemonEvent);
    expect(over).toMatchObject({ kind: 'context-over', title: 'api: context 84 % full' });
    expect(over?.body).toMatch(/^The conversation fills 84 % of claude-sonnet-4-5's window, past the 80 % you set/);
    expect(noticeFor({ type: 'checkpoint.written', ...base, gitHead: null, changedFiles: 0, changed: false } as DaemonEvent)).toBeNull();
  });
});

describe('earlier output', () => {
  it('reads as text: escapes removed, a carriage return rewrites its line', () => {
    expect(plainText('\x1b[31mred\x1b[0m line\r\nspin 1\rspin 2\r\n\x1b]0;title\x07done')).toBe('red line\nspin 2\ndone');
  });
});
