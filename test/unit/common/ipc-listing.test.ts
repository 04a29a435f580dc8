// `sessions.listing` as a client checks it (common/ipc.ts's schema, through the protocol client's
// core): the fields `mori ls` reads are checked, of the session and of its live state, the rest of
// each passes as the daemon sent it, and --json prints it all.
import { describe, expect, it } from 'vitest';
import { ProtocolClient, type Transport } from '../../../common/protocol-client.js';

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
/** The listing as a client gets it when the daemon answers `value`: the result, or refused. */
async function parse(value: unknown): Promise<{ success: boolean; data?: Record<string, unknown>[] }> {
  const sent: { id: number }[] = [];
  let onFrame: (frame: string) => void = () => undefined;
  const transport: Transport = { send: (f) => void sent.push(JSON.parse(f) as { id: number }), onFrame: (l) => (onFrame = l), onClose: () => undefined };
  const asked = new ProtocolClient(transport).request('sessions.listing', {});
  onFrame(JSON.stringify({ kind: 'reply', id: sent[0]?.id, ok: true, value }));
  const r = await asked;
  return r.ok ? { success: true, data: r.value as Record<string, unknown>[] } : { success: false };
}

describe('a session listing from the daemon', () => {
  it('keeps every field of each session and entry, checked or not', async () => {
    const r = await parse([entry(session), { stateDir: '/q/.mori/x', ok: false, error: 'unreadable', live: null }]);
    expect(r.success).toBe(true);
    expect(r.data?.[0]).toEqual(entry(session));
    expect(r.data?.[1]).toMatchObject({ ok: false, error: 'unreadable' });
  });

  it('refuses one whose fields ls reads are missing or of another shape', async () => {
    const { name: _name, ...nameless } = session;
    expect((await parse([entry(nameless)])).success).toBe(false);
    expect((await parse([entry({ ...session, intent: { kind: 'gone' } })])).success).toBe(false);
    expect((await parse([entry({ ...session, agent: { profile: 7 } })])).success).toBe(false);
    expect((await parse([entry({ ...session, worktree: { path: '/w' } })])).success).toBe(false);
  });

  it('checks the live fields ls words a session with, and passes the rest of them as sent', async () => {
    const live = { id: session.id, state: 'running', activity: 'working', pid: 42, usageLimit: null, name: 'work', nextAttemptAt: null, extra: { any: 1 } };
    const r = await parse([{ ...entry(session), live }]);
    expect(r.success).toBe(true);
    expect(r.data?.[0]?.live).toEqual(live);
    expect((await parse([{ ...entry(session), live: { ...live, state: 'dancing' } }])).success).toBe(false);
    expect((await parse([{ ...entry(session), live: { ...live, activity: 7 } }])).success).toBe(false);
    expect((await parse([{ ...entry(session), live: { ...live, pid: '42' } }])).success).toBe(false);
    expect((await parse([{ ...entry(session), live: { ...live, usageLimit: { resetAt: 'soon' } } }])).success).toBe(false);
    const { id: _id, ...idless } = live;
    expect((await parse([{ ...entry(session), live: idless }])).success).toBe(false);
  });
});
