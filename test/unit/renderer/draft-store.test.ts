// The window's store of unsaved state-file edits: kept per session and file, survives a new store
// over the same storage (a reload), lists a session's files with a draft, removes a draft equal to
// the text it started from, ignores anything in storage that is not a draft, and says so when the
// storage refuses to keep one; an edit not in storage (typing not paused yet, or refused) is pending:
// its file is listed and the store has unsaved work until it is kept or cleared.
import { describe, expect, it } from 'vitest';
import { DraftStore, DRAFT_KEY_PREFIX, type DraftStorage } from '../../../renderer/editor/draft-store.js';

/** Web Storage's behaviour over a Map, optionally refusing writes as a full storage does. */
class MemoryStorage implements DraftStorage {
  readonly map = new Map<string, string>();
  full = false;
  getItem(k: string): string | null {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    if (this.full) throw new DOMException('quota', 'QuotaExceededError');
    this.map.set(k, v);
  }
  removeItem(k: string): void {
    this.map.delete(k);
  }
  key(i: number): string | null {
    return [...this.map.keys()][i] ?? null;
  }
  get length(): number {
    return this.map.size;
  }
}

const draft = (text: string) => ({ text, baseVersion: 'v1', baseText: 'base\n' });

describe('DraftStore', () => {
  it('keeps drafts per session and file, and a new store over the same storage finds them', () => {
    const storage = new MemoryStorage();
    const store = new DraftStore(storage);
    let changes = 0;
    store.onChange(() => changes++);
    expect(store.put('s1', 'session_state.md', draft('mine\n'))).toBe(true);
    expect(store.put('s1', 'environment.md', draft('env\n'))).toBe(true);
    expect(store.put('s2', 'session_state.md', draft('other\n'))).toBe(true);
    expect(changes).toBe(3);

    const reloaded = new DraftStore(storage);
    expect(reloaded.get('s1', 'session_state.md')).toEqual(draft('mine\n'));
    expect(reloaded.get('s2', 'session_state.md')?.text).toBe('other\n');
    expect(reloaded.files('s1').sort()).toEqual(['environment.md', 'session_state.md']);
    expect(reloaded.files('s3')).toEqual([]);
    expect(reloaded.any()).toBe(true);

    reloaded.clear('s1', 'session_state.md');
    reloaded.clear('s1', 'environment.md');
    reloaded.clear('s2', 'session_state.md');
    expect(reloaded.any()).toBe(false);
  });

  it('a draft equal to the text it was edited from is no draft', () => {
    const store = new DraftStore(new MemoryStorage());
    store.put('s', 'session_state.md', draft('mine\n'));
    store.put('s', 'session_state.md', draft('base\n'));
    expect(store.get('s', 'session_state.md')).toBeNull();
    expect(store.files('s')).toEqual([]);
  });

  it('ignores what is not a draft, and reports storage that refuses one', () => {
    const storage = new MemoryStorage();
    storage.map.set(DRAFT_KEY_PREFIX + JSON.stringify(['s', 'session_state.md']), '{"text": 5}');
    storage.map.set(DRAFT_KEY_PREFIX + 'not json', JSON.stringify(draft('x')));
    storage.map.set('mori.sessionSecret', 'abc');
    const store = new DraftStore(storage);
    expect(store.get('s', 'session_state.md')).toBeNull();
    expect(store.any()).toBe(false);
    storage.full = true;
    expect(store.put('s', 'environment.md', draft('mine\n'))).toBe(false);
  });

  it('holds an edit not in storage as pending: listed, unsaved, until kept or cleared', () => {
    const storage = new MemoryStorage();
    const store = new DraftStore(storage);
    let changes = 0;
    store.onChange(() => changes++);
    store.markPending('s', 'session_state.md');
    store.markPending('s', 'session_state.md');
    expect(changes).toBe(1);
    expect(store.files('s')).toEqual(['session_state.md']);
    expect(store.any()).toBe(true);
    expect(store.get('s', 'session_state.md')).toBeNull();
    // Kept: listed once, from storage.
    expect(store.put('s', 'session_state.md', draft('mine\n'))).toBe(true);
    expect(store.files('s')).toEqual(['session_state.md']);
    // Refused later (storage full): the older text stays kept, the edit pending, listed once.
    storage.full = true;
    expect(store.put('s', 'session_state.md', draft('mine, longer\n'))).toBe(false);
    expect(store.files('s')).toEqual(['session_state.md']);
    expect(store.get('s', 'session_state.md')?.text).toBe('mine\n');
    store.clear('s', 'session_state.md');
    expect(store.any()).toBe(false);
    // A refused first put is pending too: the tab is marked, closing asks.
    expect(store.put('s', 'environment.md', draft('big\n'))).toBe(false);
    expect(store.files('s')).toEqual(['environment.md']);
  });
});
