// The window's history at start: the daemon's last events read twice (the story's types, and any), merged
// by number, oldest first, each once; nothing when the daemon cannot answer; an event handed on once
// whether it came from the read or the live stream; a transcript's end written to a terminal from its
// first whole line.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent, IpcMethod, IpcParams } from '../../../common/ipc.js';
import type { MoriApi } from '../../../common/mori-api.js';
import { fail, ok } from '../../../common/result.js';
import { readHistory, SeenEvents, STORY_TYPES } from '../../../renderer/shell/event-history.js';
import { lastOutputText } from '../../../renderer/terminal/session-terminal.js';

const ev = (at: number, type: 'log.appended' | 'verify.started' = 'log.appended'): DaemonEvent => ({ type, at, sessionId: 's', name: 'n' });

/** An API whose `events.recent` answers from `log` (numbered events) as the daemon's ring would. */
function apiOver(log: { seq: number; event: DaemonEvent }[] | null): { api: MoriApi; asked: IpcParams<'events.recent'>[] } {
  const asked: IpcParams<'events.recent'>[] = [];
  const call = (method: IpcMethod, params: IpcParams<'events.recent'>) => {
    asked.push(params);
    if (method !== 'events.recent' || log === null) return Promise.resolve(fail('failed', 'no such method'));
    const kept = log.filter((e) => !params.types || params.types.includes(e.event.type)).slice(-(params.limit ?? 1000));
    return Promise.resolve(ok({ epoch: 'e', seq: log.length, events: kept }));
  };
  return { api: { call } as unknown as MoriApi, asked };
}

describe('the history a window reads at start', () => {
  it('merges the story and the recent events by number, oldest first, each once', async () => {
    const log = [1, 2, 3, 4].map((seq) => ({ seq, event: ev(seq, seq === 2 ? 'verify.started' : 'log.appended') }));
    const { api, asked } = apiOver(log);
    expect((await readHistory(api)).map((e) => e.at)).toEqual([1, 2, 3, 4]);
    expect(asked.map((p) => p.types ?? null)).toEqual([[...STORY_TYPES], null]);
  });

  it('is empty when the daemon cannot answer (one older than events.recent)', async () => {
    expect(await readHistory(apiOver(null).api)).toEqual([]);
  });

  it('hands an event on once, whichever way it came, and forgets the oldest past its bound', () => {
    const seen = new SeenEvents();
    expect(seen.first(ev(1))).toBe(true);
    expect(seen.first({ ...ev(1) })).toBe(false);
    expect(seen.first(ev(2))).toBe(true);
    for (let i = 3; i < 5000; i++) seen.first(ev(i));
    expect(seen.first(ev(1))).toBe(true);
    expect(seen.first(ev(4999))).toBe(false);
  });
});

describe('a transcript\'s end in a terminal', () => {
  it('starts at its first whole line unless it reaches the start, and resets the colours after', () => {
    expect(lastOutputText('\x1b[31mred\nnext', true)).toBe('\x1b[31mred\nnext\x1b[0m');
    expect(lastOutputText('1mred\nnext', false)).toBe('next\x1b[0m');
  });
});
