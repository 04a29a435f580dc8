// `sessions.listing` as a client checks it (common/ipc.ts): the fields `mori ls` reads are checked,
// of the session and of its live state, the rest of each passes as the daemon sent it, and --json
// prints it all.
import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/mini';
import { IpcMethods } from '../../common/ipc.js';

const session = {
  schemaVersion: 1,
  id: '123e4567-e89b-42d3-a456-426614174000',
  name: 'work',
  projectDir: '/p',
  createdAt: '2026-12-01T00:00:00.000Z',
  agent: { profile: 'claude', sessionId: null, cwd: null },
  backend: 'direct',
  intent: { kind: 'interrupted', reason: 'sleep' },
  lastCheckpoint: { at: 'x', gitHead: null, changedFiles: ['a'], snapshot: null },
  worktree: { path: '/w', branch: 'mori/work', repo: '/p' },
};
const entry = (s: unknown) => ({ stateDir: '/p/.mori/work', ok: true, session: s, live: null, task: 'ship it' });
const parse = (value: unknown) => safeParse(IpcMethods['sessions.listing'].result, value);

describe('a session listing from the daemon', () => {
  it('keeps every field of each session and entry, checked or not', () => {
    const r = parse([entry(session), { stateDir: '/q/.mori/x', ok: false, error: 'unreadable', live: null }]);
    expect(r.success).toBe(true);
    expect(r.data?.[0]).toEqual(entry(session));
    expect(r.data?.[1]).toMatchObject({ ok: false, error: 'unreadable' });
  });

  it('refuses one whose fields ls reads are missing or of another shape', () => {
    const { name: _name, ...nameless } = session;
    expect(parse([entry(nameless)]).success).toBe(false);
    expect(parse([entry({ ...session, intent: { kind: 'gone' } })]).success).toBe(false);
    expect(parse([entry({ ...session, agent: { profile: 7 } })]).success).toBe(false);
    expect(parse([entry({ ...session, worktree: { path: '/w' } })]).success).toBe(false);
  });

  it('checks the live fields ls words a session with, and passes the rest of them as sent', () => {
    const live = { id: session.id, state: 'running', activity: 'working', pid: 42, usageLimit: null, name: 'work', nextAttemptAt: null, extra: { any: 1 } };
    const r = parse([{ ...entry(session), live }]);
    expect(r.success).toBe(true);
    expect(r.data?.[0]?.live).toEqual(live);
    expect(parse([{ ...entry(session), live: { ...live, state: 'dancing' } }]).success).toBe(false);
    expect(parse([{ ...entry(session), live: { ...live, activity: 7 } }]).success).toBe(false);
    expect(parse([{ ...entry(session), live: { ...live, pid: '42' } }]).success).toBe(false);
    expect(parse([{ ...entry(session), live: { ...live, usageLimit: { resetAt: 'soon' } } }]).success).toBe(false);
    const { id: _id, ...idless } = live;
    expect(parse([{ ...entry(session), live: idless }]).success).toBe(false);
  });
});
