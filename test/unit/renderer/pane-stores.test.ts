// The window's pane stores and models (renderer/*/…-store.ts, …-model.ts): a read's answer lands only
// while no newer read began and the pane is open, each pane's events and actions reach the daemon's API
// as before, and the models decide the work log's pages, the new session request, the rename's name and
// the file the Changes tab keeps selected. Plain Node: no page, an API answering when told.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent, LogEntry } from '../../../common/ipc.js';
import type { MoriApi } from '../../../common/mori-api.js';
import { ChangesStore } from '../../../renderer/changes/changes-store.js';
import { stillSelected } from '../../../renderer/changes/checkpoint-timeline.js';
import { EMPTY_FORM, initRequest, recentFolders, slugName } from '../../../renderer/dialogs/new-session-model.js';
import { removeSummary, renameParts } from '../../../renderer/header/session-manage-model.js';
import { withNewest, withOlder } from '../../../renderer/work-log/work-log-model.js';
import { WorkLogStore } from '../../../renderer/work-log/work-log-store.js';

interface Pending {
  method: string;
  params: Record<string, unknown>;
  answer: (value: unknown) => void;
}

/** An API whose every call waits until the test answers it. */
function heldApi(): { api: MoriApi; calls: Pending[] } {
  const calls: Pending[] = [];
  const api = {
    call: (method: string, params: Record<string, unknown>) => new Promise((resolve) => calls.push({ method, params, answer: (value) => resolve({ ok: true, value }) })),
  } as unknown as MoriApi;
  return { api, calls };
}

/** A place for daemon events: the stores subscribe, the test emits. */
function events(): { onEvent: (l: (e: DaemonEvent) => void) => () => void; emit: (e: DaemonEvent) => void; listeners: Set<(e: DaemonEvent) => void> } {
  const listeners = new Set<(e: DaemonEvent) => void>();
  return {
    listeners,
    onEvent: (l) => (listeners.add(l), () => listeners.delete(l)),
    emit: (e) => listeners.forEach((l) => l(e)),
  };
}

const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
const entry = (index: number): LogEntry => ({ index, heading: `## ${index}`, lines: [], archived: false }) as unknown as LogEntry;
const listing = (paths: string[]) => ({ files: paths.map((path) => ({ path, kind: 'modified', binary: false, added: 1, deleted: 0 })), added: 1, deleted: 0, since: { commit: 'c0' } });

describe('pane stores', () => {
  it('drops the answer of a Changes read that a newer read overtook', async () => {
    const { api, calls } = heldApi();
    const ev = events();
    const store = new ChangesStore(api, 's1', ev.onEvent);
    store.open();
    ev.emit({ type: 'checkpoint.written', sessionId: 's1' } as unknown as DaemonEvent);
    expect(calls.map((c) => c.method)).toEqual(['checkpoints.list', 'changes.list', 'log.tail', 'checkpoints.list', 'changes.list', 'log.tail']);
    // The newer read answers first, then the older one: the older one is dropped.
    for (const c of calls.slice(3)) c.answer(c.method === 'changes.list' ? listing(['new.ts']) : c.method === 'log.tail' ? { entries: [] } : { checkpoints: [] });
    await flush();
    for (const c of calls.slice(0, 3)) c.answer(c.method === 'changes.list' ? listing(['old.ts']) : c.method === 'log.tail' ? { entries: [] } : { checkpoints: [] });
    await flush();
    expect(store.state.listing?.files.map((f) => f.path)).toEqual(['new.ts']);
    expect(store.state.selected).toBe('new.ts');
    expect(calls.filter((c) => c.method === 'changes.diff').map((c) => c.params.paths)).toEqual([['new.ts']]);
  });

  it('takes nothing in after the pane closed, and stops hearing events', async () => {
    const { api, calls } = heldApi();
    const ev = events();
    const store = new WorkLogStore(api, 's1', ev.onEvent);
    store.open();
    expect(ev.listeners.size).toBe(1);
    store.close();
    expect(ev.listeners.size).toBe(0);
    calls[0]?.answer({ entries: [entry(1)], more: false });
    await flush();
    expect(store.state.entries).toEqual([]);
  });

  it("reads the work log's newest page again on each entry appended to it, and adds an entry from the box", async () => {
    const { api, calls } = heldApi();
    const ev = events();
    const store = new WorkLogStore(api, 's1', ev.onEvent);
    store.open();
    calls[0]?.answer({ entries: [entry(1), entry(2)], more: true });
    await flush();
    ev.emit({ type: 'log.appended', sessionId: 's2' } as unknown as DaemonEvent);
    expect(calls).toHaveLength(1);
    store.setDraft('  did a thing ');
    const added = store.add();
    expect(calls[1]).toMatchObject({ method: 'log.append', params: { session: 's1', text: 'did a thing' } });
    calls[1]?.answer({});
    await flush();
    calls[2]?.answer({ entries: [entry(2), entry(3)], more: true });
    await added;
    expect(store.state.entries.map((e) => e.index)).toEqual([1, 2, 3]);
    expect(store.state.draft).toBe('');
  });
});

describe('pane models', () => {
  it("keeps the work log's older pages under the newest one", () => {
    expect(withNewest([entry(1), entry(2), entry(3)], [entry(3), entry(4)]).map((e) => e.index)).toEqual([1, 2, 3, 4]);
    expect(withOlder([entry(3), entry(4)], [entry(1), entry(2)], 3).map((e) => e.index)).toEqual([1, 2, 3, 4]);
  });

  it('makes the session.init request of the new session form, or says what is wrong with every field at once', () => {
    expect(initRequest(EMPTY_FORM)).toEqual({ ok: false, errors: { projectDir: expect.any(String), name: expect.any(String) } });
    expect(initRequest({ ...EMPTY_FORM, projectDir: '/p', name: '!!!', profile: 'shell' })).toEqual({ ok: false, errors: { name: expect.stringMatching(/letters or digits/), command: expect.any(String) } });
    expect(initRequest({ ...EMPTY_FORM, projectDir: '/p', name: 'Tool.app' })).toEqual({ ok: false, errors: { name: expect.stringMatching(/^Not as "tool\.app": it may not end in "\.app"/) } });
    expect(initRequest({ ...EMPTY_FORM, projectDir: ' /p ', name: 'x', task: ' t ', command: 'ignored' })).toEqual({ ok: true, params: { projectDir: '/p', name: 'x', profile: 'claude', backend: 'tmux', task: 't', sandbox: false } });
    // The sandbox as chosen (the settings' until changed), its network only when on.
    expect(initRequest({ ...EMPTY_FORM, projectDir: '/p', name: 'x', sandbox: true, network: 'allowlist' })).toMatchObject({ ok: true, params: { sandbox: true, sandboxNetwork: 'allowlist' } });
    expect(initRequest({ ...EMPTY_FORM, projectDir: '/p', name: 'Fix refunds!', worktree: true, branch: ' ' })).toMatchObject({ ok: true, params: { name: 'fix-refunds', worktree: {} } });
    expect(initRequest({ ...EMPTY_FORM, projectDir: '/p', name: 'x', worktree: true, branch: 'b' })).toMatchObject({ ok: true, params: { worktree: { branch: 'b' } } });
  });

  it('makes a session name of what is typed, and offers the folders of this host\'s sessions', () => {
    expect(['Fix refunds!', '  --Café au lait_', 'a/b c', 'v1.2', '!!!', 'x'.repeat(70) + '-y'].map(slugName)).toEqual(['fix-refunds', 'cafe-au-lait_', 'a-b-c', 'v1.2', '', 'x'.repeat(64)]);
    const s = (name: string, projectDir?: string, branch?: string) => ({ name, ...(projectDir ? { projectDir } : {}), ...(branch ? { branch } : {}) });
    expect(recentFolders([s('a', '/p'), s('b', '/q'), s('c', '/p'), s('box:d', '/r'), s('e', '/wt/e', 'mori/e'), s('f')])).toEqual(['/p', '/q']);
  });

  it("renames a remote session's part after its host, says what removal does, keeps the selected file while it is listed", () => {
    expect(renameParts('box:work')).toEqual({ host: 'box:', name: 'work' });
    expect(renameParts('work')).toEqual({ host: '', name: 'work' });
    expect(removeSummary('/s', true, false)).toMatch(/state files in \/s are deleted/);
    expect(stillSelected([{ path: 'a' }, { path: 'b' }], 'b')).toBe('b');
    expect(stillSelected([{ path: 'a' }], 'b')).toBe('a');
    expect(stillSelected([], 'b')).toBeNull();
  });
});
