// Unsaved edits of the editable state files (DESIGN.md §13), kept per session and file in the
// page's storage (localStorage in the window) so they outlive a tab switch, a session switch and a
// reload: the text, and the version and text of the file it was edited from (so a file changed on
// disk meanwhile is noticed, not overwritten). What storage holds is read defensively: anything not
// a draft's shape is no draft. An edit not (yet) in storage — typing not yet paused, or a text too
// large for the storage — is held as pending in memory, so its tab is marked and closing the page asks
// all the same. Pure TypeScript; the storage is passed in.

export interface Draft {
  text: string;
  /** The file's version the edit started from (`state.read`). */
  baseVersion: string;
  baseText: string;
}

/** What the store needs of Web Storage. */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

/** Keys of drafts: the prefix, then the session id and the file as JSON (ids and names never collide). */
export const DRAFT_KEY_PREFIX = 'mori.draft:';

const keyOf = (session: string, file: string): string => DRAFT_KEY_PREFIX + JSON.stringify([session, file]);

function parseDraft(raw: string | null): Draft | null {
  if (raw === null) return null;
  try {
    const v = JSON.parse(raw) as Partial<Record<keyof Draft, unknown>> | null;
    if (v && typeof v.text === 'string' && typeof v.baseVersion === 'string' && typeof v.baseText === 'string') {
      return { text: v.text, baseVersion: v.baseVersion, baseText: v.baseText };
    }
  } catch {
    // not a draft
  }
  return null;
}

export class DraftStore {
  private readonly listeners = new Set<() => void>();
  /** Edits not in storage (yet), by key: still unsaved work. */
  private readonly pending = new Map<string, [string, string]>();

  constructor(private readonly storage: DraftStorage) {}

  get(session: string, file: string): Draft | null {
    return parseDraft(this.storage.getItem(keyOf(session, file)));
  }

  /**
   * Keeps the edit; false when storage refused it (full, or forbidden), so the caller can say so. A
   * draft equal to the text it started from is no draft: it is removed.
   */
  put(session: string, file: string, draft: Draft): boolean {
    if (draft.text === draft.baseText) {
      this.clear(session, file);
      return true;
    }
    const key = keyOf(session, file);
    try {
      this.storage.setItem(key, JSON.stringify(draft));
    } catch {
      // Refused: an older put's text (if any) stays, the closest kept; the edit stays pending (unsaved) in memory.
      this.markPending(session, file);
      return false;
    }
    this.pending.delete(key);
    this.changed();
    return true;
  }

  /** An edit made and not yet kept (`put` follows when typing pauses): unsaved all the same. */
  markPending(session: string, file: string): void {
    const key = keyOf(session, file);
    if (this.pending.has(key)) return;
    this.pending.set(key, [session, file]);
    this.changed();
  }

  clear(session: string, file: string): void {
    const key = keyOf(session, file);
    const held = this.pending.delete(key);
    if (this.storage.getItem(key) === null) {
      if (held) this.changed();
      return;
    }
    this.storage.removeItem(key);
    this.changed();
  }

  /** The files of this session with an unsaved edit. */
  files(session: string): string[] {
    return this.entries()
      .filter(([s]) => s === session)
      .map(([, f]) => f);
  }

  /** Whether any session has an unsaved edit. */
  any(): boolean {
    return this.entries().length > 0;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Another page changed the storage (the `storage` event): listeners redraw. */
  changed(): void {
    for (const l of [...this.listeners]) l();
  }

  private entries(): [string, string][] {
    const out: [string, string][] = [...this.pending.values()];
    for (let i = 0; i < this.storage.length; i++) {
      const key = this.storage.key(i);
      if (!key?.startsWith(DRAFT_KEY_PREFIX) || parseDraft(this.storage.getItem(key)) === null) continue;
      try {
        const v = JSON.parse(key.slice(DRAFT_KEY_PREFIX.length)) as unknown;
        if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && !this.pending.has(key)) out.push([v[0], v[1]]);
      } catch {
        // not one of ours
      }
    }
    return out;
  }
}
