// The notification decider (common/notification-decider.ts): one notification per transition,
// none again for an unchanged condition, one for several sessions making the same transition in a
// batch, none for the focused session, a muted one, or while paused (the app's pause or the daemon's
// shared one), none of a kind the shared settings turn off — and those still count as told; a
// session handed to another agent is not told as resumed.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../common/ipc.js';
import { decideNotifications, emptyMemory, pauseUntil, type DecideInput, type DeciderMemory } from '../../../common/notification-decider.js';
import type { WatchedSession } from '../../../common/session-view.js';
import { row } from '../../support/session-rows.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const input = (rows: WatchedSession[], over: Partial<DecideInput> = {}): DecideInput => ({ rows, events: [], now: NOW, focusedSession: null, muted: new Set(), pausedUntil: null, ...over });
const ev = (type: string, name: string, extra: Record<string, unknown> = {}): DaemonEvent => ({ type, at: NOW, sessionId: `id-${name}`, name, ...extra }) as DaemonEvent;

function run(steps: DecideInput[]): string[][] {
  let memory: DeciderMemory = emptyMemory();
  return steps.map((s) => {
    const r = decideNotifications(memory, s);
    memory = r.memory;
    return r.notices.map((n) => `${n.title}|${n.body}|${n.session ?? ''}`);
  });
}

describe('decideNotifications', () => {
  it('off the machine: also a session finished, handed off, resumed after its usage limit, each once with its kind; the desktop tells none of them', () => {
    const rows = [row('a'), row('b'), row('c')];
    const events = [
      ev('session.exited', 'a', { code: 0, signal: null, outcome: 'finished' }),
      ev('session.handedOff', 'b', { from: 'claude', to: 'codex', reason: 'by hand' }),
      ev('session.limited', 'c', { plan: { resumeAt: NOW, resetAt: NOW, text: 'limit', detectedAt: NOW }, news: 'new' }),
      ev('session.resumed', 'c', { launch: 'resume' }),
    ];
    const kinds = (offMachine: boolean) => decideNotifications(emptyMemory(), input(rows, { events, offMachine })).notices.map((n) => `${n.kind}|${n.title}`);
    expect(kinds(true)).toEqual(['finished|a finished', 'handed-off|b continues with codex', 'usage-limit|c resumed after its usage limit']);
    expect(kinds(false)).toEqual([]);
    // A crash's exit is no finish.
    expect(decideNotifications(emptyMemory(), input(rows, { events: [ev('session.exited', 'a', { code: 1, signal: null, outcome: 'crash' })], offMachine: true })).notices).toEqual([]);
  });

  it("off the machine, a usage limit's line from the agent's screen is not sent; the desktop shows it", () => {
    const plan = { resumeAt: NOW, resetAt: NOW, text: 'You have hit your limit · resets 3pm', detectedAt: NOW, source: 'screen' as const, retries: 0 };
    const limited = row('a', { state: 'limited', usageLimit: plan });
    const body = (offMachine: boolean) => decideNotifications(emptyMemory(), input([limited], { offMachine })).notices.map((n) => n.body);
    expect(body(true)).toEqual(['']);
    expect(body(false)).toEqual([plan.text]);
  });

  it('tells each transition once, never again while the condition stays, and again after it ends and comes back', () => {
    const ok = row('a');
    const asks = row('a', { activity: 'needs-input' });
    expect(run([input([ok]), input([asks]), input([asks]), input([ok]), input([asks])])).toEqual([
      [],
      ['a needs input|The agent is waiting for an answer.|id-a'],
      [],
      [],
      ['a needs input|The agent is waiting for an answer.|id-a'],
    ]);
  });

  it('names the failing check line for a failed verification, and the crash loop with its message', () => {
    const failed = row('a', {}, { verify: { ok: false, summary: 'checks 1/2\ncommand npm test: exit 1 — 3 failing' } });
    const loop = row('b', { state: 'attention' }, { attention: { reason: 'crash-loop', message: 'crashed 5 times in 10 min' } });
    expect(run([input([failed, loop])])[0]).toEqual([
      'a: verification failed|command npm test: exit 1 — 3 failing|id-a',
      'b is in a crash loop|crashed 5 times in 10 min|id-b',
    ]);
  });

  it('makes one notification for several sessions resumed after sleep in one batch, naming them', () => {
    const rows = [row('a'), row('b'), row('c')];
    const interrupted = rows.map((r) => ev('session.interrupted', r.info.name, { reason: 'sleep', retryInMs: null }));
    const resumed = rows.map((r) => ev('session.resumed', r.info.name, { launch: 'resume' }));
    expect(run([input(rows, { events: interrupted }), input(rows, { events: resumed })])).toEqual([[], ['3 sessions resumed after sleep|a, b, c|']]);
    // One session alone is named, and a crash's resume is not news.
    const one = [ev('session.interrupted', 'a', { reason: 'network', retryInMs: null }), ev('session.resumed', 'a', { launch: 'resume' })];
    expect(run([input(rows, { events: one })])).toEqual([['a resumed after a network outage||id-a']]);
    const crash = [ev('session.interrupted', 'a', { reason: 'crash', retryInMs: 100 }), ev('session.resumed', 'a', { launch: 'resume' })];
    expect(run([input(rows, { events: crash })])).toEqual([[]]);
  });

  it('does not tell a session handed to another agent as resumed: the interrupted agent was ended by the hand-off', () => {
    const rows = [row('a'), row('b')];
    const interrupted = rows.map((r) => ev('session.interrupted', r.info.name, { reason: 'network', retryInMs: null }));
    const handedOff = ev('session.handedOff', 'a', { from: 'claude', to: 'codex', reason: 'by hand' });
    const resumed = rows.map((r) => ev('session.resumed', r.info.name, { launch: 'resume' }));
    // Across batches, and within one.
    expect(run([input(rows, { events: interrupted }), input(rows, { events: [handedOff] }), input(rows, { events: resumed })])).toEqual([[], [], ['b resumed after a network outage||id-b']]);
    expect(run([input(rows, { events: [...interrupted, handedOff, ...resumed] })])).toEqual([['b resumed after a network outage||id-b']]);
  });

  it('tells a conversation past the context share set, one notice for several in a batch, none for a kind turned off', () => {
    const rows = [row('a'), row('b')];
    const over = (name: string): DaemonEvent => ev('session.contextOver', name, { share: 0.84, warn: 0.8, model: null });
    expect(run([input(rows, { events: [over('a')] })])[0]).toEqual([expect.stringMatching(/^a: context 84 % full\|The conversation fills 84 % of the model's window, past the 80 % you set.*\|id-a$/)]);
    expect(run([input(rows, { events: [over('a'), over('b')] })])[0]).toEqual(['2 sessions are past their context share|a, b|']);
    const off = { paused: false, events: ['needs-input'] };
    expect(run([input(rows, { events: [over('a')], daemonNotifications: off })])[0]).toEqual([]);
  });

  it('says nothing for the focused session, a muted one, or while paused, and does not replay those later', () => {
    const asks = row('a', { activity: 'needs-input' });
    expect(run([input([row('a')]), input([asks], { focusedSession: 'id-a' }), input([asks])])).toEqual([[], [], []]);
    expect(run([input([row('a')]), input([asks], { muted: new Set(['id-a']) }), input([asks])])).toEqual([[], [], []]);
    expect(run([input([row('a')]), input([asks], { pausedUntil: NOW + 1 }), input([asks], { now: NOW + 2, pausedUntil: NOW + 1 })])).toEqual([[], [], []]);
    expect(run([input([row('a')]), input([asks], { pausedUntil: NOW - 1 })])).toEqual([[], ['a needs input|The agent is waiting for an answer.|id-a']]);
  });

  it('pauses for an hour, or until 08:00 tomorrow', () => {
    expect(pauseUntil('hour', NOW)).toBe(NOW + 3_600_000);
    const t = new Date(pauseUntil('tomorrow', NOW));
    expect([t.getHours(), t.getMinutes(), t.getDate()]).toEqual([8, 0, new Date(NOW + 86_400_000).getDate()]);
  });

  it("follows the daemon's shared settings: nothing while they pause, only the kinds they want (attention always), and those still count as told", () => {
    const ok = row('a');
    const asks = row('a', { activity: 'needs-input' });
    const loop = row('b', { state: 'attention' }, { attention: { reason: 'crash-loop', message: 'crashed 5 times' } });
    const odd = row('c', { state: 'attention' }, { attention: { reason: 'config', message: 'bad file' } });
    const paused = { paused: true, events: ['needs-input', 'crash-loop'] };
    const onlyLoops = { paused: false, events: ['crash-loop'] };
    expect(
      run([
        input([ok]),
        input([asks], { daemonNotifications: paused }),
        input([asks], { daemonNotifications: null }),
        input([ok, loop, odd], { daemonNotifications: onlyLoops }),
        input([asks, loop, odd], { daemonNotifications: onlyLoops }),
      ]).map((n) => n.map((x) => x.split('|')[0])),
    ).toEqual([[], [], [], ['b is in a crash loop', 'c needs you'], []]);
  });
});
