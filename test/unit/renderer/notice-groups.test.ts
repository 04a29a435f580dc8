// The window's notices grouped per session and interruption episode: a crash loop recorded from the
// real supervisor (test/support/fixtures/events/crash-loop.json: the fake agent exiting 1 five times) is one
// group that says its outcome once, fed as history or one event at a time; a sleep resumed is one "resumed after sleep", told once; an interruption soon after a recovery
// continues the episode, a later one starts another; other notices saying the same again add to the
// newest group; dismissing drops one group, clearing all of them, and an open episode comes back
// when it changes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../../common/interruption-episodes.js';
import type { DaemonEvent } from '../../../common/ipc.js';
import { clearGroups, dismissGroup, emptyBook, takeEvents, type NoticeBook } from '../../../renderer/notices/notice-groups.js';

const CRASH_LOOP = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../support/fixtures/events/crash-loop.json'), 'utf8')) as DaemonEvent[];

const S = { sessionId: 's1', name: 'fix-refunds' };
const interrupted = (at: number, reason: 'sleep' | 'crash' = 'sleep'): DaemonEvent => ({ type: 'session.interrupted', at, ...S, reason, retryInMs: null });
const resumed = (at: number): DaemonEvent => ({ type: 'session.resumed', at, ...S, launch: 'resume' });
const waiting = (at: number): DaemonEvent => ({ type: 'session.activity', at, ...S, from: 'unknown', to: 'waiting' });
const needsInput = (at: number): DaemonEvent => ({ type: 'session.activity', at, ...S, from: 'working', to: 'needs-input' });

/** Feeds the events one at a time, as they arrive live; returns the book and everything told. */
function live(events: readonly DaemonEvent[], book: NoticeBook = emptyBook()): { book: NoticeBook; told: string[] } {
  const told: string[] = [];
  for (const e of events) {
    const r = takeEvents(book, [e]);
    book = r.book;
    told.push(...r.told.map((g) => g.title));
  }
  return { book, told };
}

describe('notice groups', () => {
  it('makes a recorded crash loop one group with its outcome, told once, from history or live', () => {
    expect(CRASH_LOOP.filter((e) => e.type === 'session.resumed')).toHaveLength(4);
    const history = takeEvents(emptyBook(), CRASH_LOOP);
    expect(history.book.groups).toHaveLength(1);
    const [group] = history.book.groups;
    expect(group).toMatchObject({ sessionId: 'fix-refunds-id', kind: 'crash-loop', outcome: 'gave-up', title: 'fix-refunds: crash loop, not restarting' });
    expect(group?.body).toBe('The agent crashed 5 times within 10 minutes; not restarting it. Resumed 4 times before.');
    expect(history.told.map((g) => g.title)).toEqual(['fix-refunds: crash loop, not restarting']);
    const oneByOne = live(CRASH_LOOP);
    expect(oneByOne.book.groups).toEqual(history.book.groups);
    expect(oneByOne.told).toEqual(['fix-refunds: crash loop, not restarting']);
  });

  it('says an episode is ongoing until it is resolved', () => {
    const first = CRASH_LOOP.findIndex((e) => e.type === 'session.interrupted');
    const { book } = takeEvents(emptyBook(), CRASH_LOOP.slice(0, first + 1));
    expect(book.groups).toHaveLength(1);
    expect(book.groups[0]).toMatchObject({ outcome: 'ongoing', title: 'fix-refunds interrupted', body: 'The agent crashed. Mori resumes it.' });
    // Back, then down again within the minute: the same episode, still ongoing.
    const second = CRASH_LOOP.findIndex((e, i) => i > first && e.type === 'session.interrupted');
    const again = takeEvents(emptyBook(), CRASH_LOOP.slice(0, second + 1)).book.groups;
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ outcome: 'ongoing', body: 'The agent crashed. Resumed once so far.' });
  });

  it('tells a resume after sleep once per episode', () => {
    const t = 1_000_000;
    const first = live([interrupted(t), resumed(t + 5_000), waiting(t + 6_000)]);
    expect(first.book.groups).toHaveLength(1);
    expect(first.book.groups[0]).toMatchObject({ outcome: 'resumed', title: 'fix-refunds resumed after sleep', body: 'Running again.' });
    expect(first.told).toEqual(['fix-refunds resumed after sleep']);
    // A crash soon after continues the episode: the same group, and its second recovery is not news again.
    const again = live([interrupted(t + 10_000, 'crash'), resumed(t + 11_000), waiting(t + 12_000)], first.book);
    expect(again.book.groups).toHaveLength(1);
    expect(again.book.groups[0]).toMatchObject({ outcome: 'resumed', body: 'Running again after 2 restarts.' });
    expect(again.told).toEqual([]);
    // An interruption long after is another episode.
    const later = live([interrupted(t + 12_000 + SETTLE_MS + 1)], again.book);
    expect(later.book.groups.map((g) => g.outcome)).toEqual(['ongoing', 'resumed']);
  });

  it('does not tell a resume after a crash, which the person did not miss', () => {
    expect(live([interrupted(1, 'crash'), resumed(2), waiting(3)]).told).toEqual([]);
  });

  it('adds a notice saying the same again to the newest group', () => {
    const { book, told } = live([needsInput(1), waiting(2), needsInput(3)]);
    expect(book.groups).toHaveLength(1);
    expect(book.groups[0]).toMatchObject({ title: 'fix-refunds needs input', count: 2, at: 3, outcome: null });
    expect(told).toHaveLength(2);
  });

  it('dismisses one group, clears them all, and shows an open episode again when it changes', () => {
    const { book } = takeEvents(emptyBook(), [needsInput(1), interrupted(2, 'crash')]);
    expect(book.groups.map((g) => g.outcome)).toEqual(['ongoing', null]);
    const dismissed = dismissGroup(book, book.groups[1]?.key ?? '');
    expect(dismissed.groups.map((g) => g.outcome)).toEqual(['ongoing']);
    const cleared = clearGroups(dismissed);
    expect(cleared.groups).toEqual([]);
    const back = takeEvents(cleared, [resumed(3)]);
    expect(back.book.groups).toHaveLength(1);
    expect(back.book.groups[0]).toMatchObject({ outcome: 'resumed', title: 'fix-refunds resumed after a crash' });
  });
});
