// How a session reads (common/session-view.ts), over every lifecycle state, agent activity and
// attention reason: the tray's level and words, the window's one word, `mori ls`'s words; the
// conditions the notifications are built on; the two orders; and how the rows the app keeps follow
// `list` answers and events (common/session-list-store.ts).
import { describe, expect, it } from 'vitest';
import { AGENT_ACTIVITIES, type AgentActivity } from '../../../common/agent-activity.js';
import { RUNTIME_STATES, type RuntimeState } from '../../../common/events.js';
import type { DaemonEvent, LiveSession } from '../../../common/ipc.js';
import { applyList, foldEvent } from '../../../common/session-list-store.js';
import {
  attentionKind,
  becameNeedsInput,
  byLevel,
  isLive,
  preciseState,
  recordedWords,
  needsPerson,
  needsYou,
  orderSessions,
  resumedAfterAbsence,
  sessionStatus,
  stateWord,
  worstLevel,
  type WatchedSession,
} from '../../../common/session-view.js';
import { row } from '../../support/session-rows.js';

const at = (state: RuntimeState, activity: AgentActivity = 'unknown', extra: Partial<WatchedSession> = {}): WatchedSession => row('s', { state, activity }, extra);
/** `level | tray words | window word` of one session. */
const reads = (r: WatchedSession): string => {
  const s = sessionStatus(r);
  return `${s.level} | ${s.words} | ${stateWord(r.info)}`;
};

describe('the words of a session', () => {
  it('reads a running session by its agent activity', () => {
    const table: Record<AgentActivity, string> = {
      'needs-input': 'needs-you | needs input | needs input',
      error: 'failing | error | error',
      working: 'working | working | working',
      waiting: 'ok | waiting | waiting',
      unknown: 'ok | running | running',
    };
    for (const a of AGENT_ACTIVITIES) expect(reads(at('running', a)), a).toBe(table[a]);
  });

  it('reads any other session by its lifecycle state, whatever its activity', () => {
    const table: Record<Exclude<RuntimeState, 'running'>, string> = {
      idle: 'ok | not started | not started',
      starting: 'working | starting | starting',
      resuming: 'working | resuming | resuming',
      verifying: 'working | verifying | verifying',
      backoff: 'working | interrupted | interrupted',
      limited: 'needs-you | usage limit | usage limit',
      interrupted: 'working | interrupted | interrupted',
      attention: 'needs-you | needs you: attention | attention',
      stopped: 'ok | stopped | stopped',
      finished: 'ok | finished | finished',
    };
    for (const state of RUNTIME_STATES) {
      if (state === 'running') continue;
      for (const a of AGENT_ACTIVITIES) expect(reads(at(state, a)), `${state}/${a}`).toBe(table[state]);
    }
    expect(sessionStatus(at('backoff', 'unknown', { interrupted: 'sleep' })).words).toBe('interrupted (sleep)');
  });

  it('reads a session in attention by its reason: from the event, else from its intent', () => {
    const byReason: [string, string][] = [
      ['crash-loop', 'failing | crash loop | attention'],
      ['usage-limit', 'needs-you | usage limit | attention'],
      ['state-unwritable', 'needs-you | needs you: state-unwritable | attention'],
    ];
    for (const [reason, words] of byReason) {
      expect(reads(at('attention', 'unknown', { attention: { reason, message: 'm' } })), reason).toBe(words);
      expect(reads(row('s', { state: 'attention', intent: { kind: 'attention', reason } })), `${reason} (intent)`).toBe(words);
    }
    expect(attentionKind('crash-loop')).toBe('crash-loop');
    expect(attentionKind('usage-limit')).toBe('usage-limit');
    expect(attentionKind('rate limited')).toBe('attention');
  });

  it('reads a failed verification as failing while the session is not stopped or finished', () => {
    const failed = { verify: { ok: false, summary: 'exit 1' } };
    expect(reads(at('running', 'working', failed))).toBe('failing | verification failed | working');
    expect(reads(at('stopped', 'unknown', failed))).toBe('ok | stopped | stopped');
    expect(reads(at('finished', 'unknown', failed))).toBe('ok | finished | finished');
    expect(reads(at('running', 'working', { verify: { ok: true, summary: 'ok' } }))).toBe('working | working | working');
  });

  it('gives `mori ls`, `mori status` and the window one precise line: the word, with why and when', () => {
    const info = (state: RuntimeState, more: Partial<LiveSession> = {}): LiveSession => row('s', { state, ...more }).info;
    expect(preciseState(info('running', { activity: 'needs-input', pid: 1 }))).toBe('needs input');
    expect(preciseState(info('running', { activity: 'waiting', pid: 1 }))).toBe('waiting');
    expect(preciseState(info('running', { activity: 'unknown', pid: 1 }))).toBe('running');
    expect(preciseState(info('idle'))).toBe('not started');
    expect(preciseState(info('stopped', { activity: 'working' }))).toBe('stopped');
    const at = new Date(2026, 0, 1, 9, 5).getTime();
    expect(preciseState(info('backoff', { intent: { kind: 'interrupted', reason: 'crash' }, nextAttemptAt: at }))).toBe('interrupted (crash) · restarting at 09:05');
    expect(preciseState(info('interrupted', { intent: { kind: 'interrupted', reason: 'sleep' } }))).toBe('interrupted (sleep)');
    expect(preciseState(info('attention', { intent: { kind: 'attention', reason: 'crash-loop' } }))).toBe('attention: crash loop');
    expect(preciseState(info('attention', { attention: { reason: 'needs-trust', message: 'm' } }))).toBe('attention: needs trust');
    // With no supervisor, `mori ls` says the recorded state in the same words.
    expect(recordedWords({ kind: 'new' })).toBe(preciseState(info('idle')));
    expect(recordedWords({ kind: 'user-stopped' })).toBe('stopped');
    expect(recordedWords({ kind: 'interrupted', reason: 'sleep' })).toBe(preciseState(info('interrupted', { intent: { kind: 'interrupted', reason: 'sleep' } })));
    expect(recordedWords({ kind: 'attention', reason: 'crash-loop' })).toBe('attention: crash loop');
  });

  it('agrees between the tray and the window on who needs the person', () => {
    for (const state of RUNTIME_STATES) for (const a of AGENT_ACTIVITIES) expect(needsPerson(stateWord({ state, activity: a })), `${state}/${a}`).toBe(needsYou(at(state, a)));
  });

  it('offers Stop for the states the supervisor holds', () => {
    expect(RUNTIME_STATES.filter(isLive)).toEqual(['starting', 'running', 'backoff', 'limited', 'verifying', 'resuming']);
  });
});

describe('the conditions notifications are built on', () => {
  it('needs input on the transition into it only', () => {
    expect(becameNeedsInput('working', 'needs-input')).toBe(true);
    expect(becameNeedsInput('needs-input', 'needs-input')).toBe(false);
    expect(becameNeedsInput('needs-input', 'working')).toBe(false);
  });

  it('a resume is news after sleep, a network outage or a restart, not after a crash', () => {
    expect(resumedAfterAbsence('sleep')).toBe('after sleep');
    expect(resumedAfterAbsence('network')).toBe('after a network outage');
    expect(resumedAfterAbsence('reboot')).toBe('after a restart');
    expect(resumedAfterAbsence('crash')).toBeNull();
    expect(resumedAfterAbsence('toString')).toBeNull();
    expect(resumedAfterAbsence(undefined)).toBeNull();
  });
});

describe('the orders', () => {
  it('the tray: the worst level first, then by name; the icon is the worst level', () => {
    const rows = [at('running', 'waiting'), row('b', { activity: 'working' }), row('c', { activity: 'needs-input' }), row('d', { state: 'attention', intent: { kind: 'attention', reason: 'crash-loop' } })];
    expect([...rows].sort(byLevel).map((r) => sessionStatus(r).words)).toEqual(['crash loop', 'needs input', 'working', 'waiting']);
    expect(worstLevel(rows.map((r) => sessionStatus(r).level))).toBe('failing');
    expect(worstLevel([])).toBe('ok');
  });

  it('the window: a question before any other attention, failing checks first within a word, then by name', () => {
    const s = (name: string, state: RuntimeState, activity: AgentActivity = 'unknown', failingChecks = 0) => ({ name, state, activity, failingChecks });
    const order = orderSessions([s('z', 'finished'), s('b', 'running', 'waiting'), s('a', 'running', 'waiting'), s('c', 'running', 'waiting', 1), s('loop', 'attention'), s('asks', 'running', 'needs-input'), s('err', 'running', 'error')]);
    expect(order.map((x) => x.name)).toEqual(['asks', 'loop', 'err', 'c', 'a', 'b', 'z']);
  });
});

describe('the rows the app keeps', () => {
  const ev = (type: string, extra: Record<string, unknown> = {}): DaemonEvent => ({ type, at: 1, sessionId: 'id-s', name: 's', ...extra }) as DaemonEvent;

  it('follow the events `list` does not carry, and the next `list` answer', () => {
    const rows = new Map<string, WatchedSession>();
    applyList(rows, [row('s').info, row('gone').info]);
    applyList(rows, [row('s').info, row('t', { state: 'interrupted', intent: { kind: 'interrupted', reason: 'sleep' } }).info]);
    expect([...rows.keys()]).toEqual(['id-s', 'id-t']);
    expect(rows.get('id-t')?.interrupted).toBe('sleep');

    foldEvent(rows, ev('session.attention', { reason: 'crash-loop', message: 'crashed 5 times' }));
    expect(reads(rows.get('id-s') as WatchedSession)).toBe('failing | crash loop | attention');
    foldEvent(rows, ev('verify.finished', { ok: false, summary: 'exit 1' }));
    applyList(rows, [row('s').info]);
    expect(rows.get('id-s')?.attention).toBeNull();
    expect(reads(rows.get('id-s') as WatchedSession)).toBe('failing | verification failed | waiting');
    foldEvent(rows, ev('verify.started'));
    foldEvent(rows, ev('session.activity', { from: 'waiting', to: 'needs-input' }));
    expect(reads(rows.get('id-s') as WatchedSession)).toBe('needs-you | needs input | needs input');
    foldEvent(rows, ev('session.interrupted', { reason: 'network', retryInMs: null }));
    expect(rows.get('id-s')?.interrupted).toBe('network');
    foldEvent(rows, ev('session.resumed', { launch: 'resume' }));
    expect(rows.get('id-s')?.interrupted).toBeNull();
  });

  it('take why a session waits for the person from the list, for a client that came after the event', () => {
    const rows = new Map<string, WatchedSession>();
    const why = { reason: 'agent-missing', message: 'npm install -g @openai/codex' };
    applyList(rows, [row('m', { state: 'attention', attention: why }).info]);
    expect(rows.get('id-m')?.attention).toEqual(why);
    expect(reads(rows.get('id-m') as WatchedSession)).toMatch(/attention$/);
    // An event after it says it anew; a list no longer in attention clears it.
    foldEvent(rows, { ...ev('session.attention', { reason: 'crash-loop', message: 'crashed 5 times' }), sessionId: 'id-m', name: 'm' } as DaemonEvent);
    applyList(rows, [row('m', { state: 'attention', attention: why }).info]);
    expect(rows.get('id-m')?.attention?.reason).toBe('crash-loop');
    applyList(rows, [row('m').info]);
    expect(rows.get('id-m')?.attention).toBeNull();
  });
});
