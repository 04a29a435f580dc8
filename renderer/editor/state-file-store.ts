// A state file's editor, its state and calls (DESIGN.md §3, §13): the version read and the one a save
// writes against, the unsaved text kept as a draft once typing pauses (draft-store.ts), what is on disk
// taken in live while nothing is unsaved, the banner when it changed under unsaved text or a save met
// a conflict, and the compare view's two texts. The editor itself (CodeMirror) is the view's; the store
// reaches its text through an EditorDoc. Typing stays cheap: an edit only counts, the whole text is
// read once the typing pauses. Runs in the renderer.
import type { DaemonEvent, EditableStateFile } from '../../common/ipc.js';
import { IPC_MAX_TEXT_CHARS } from '../../common/ipc-limits.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import type { DraftStore } from './draft-store.js';

/**
 * How long typing pauses before the text is kept as a draft: reading out and storing a large file
 * costs tens of milliseconds, which must not land between two key presses. A second is shorter than
 * anyone takes to switch tabs or reach for the close button (both keep the draft at once anyway).
 */
const DRAFT_IDLE_MS = 1_000;

/** The editor's text, as the store reads and replaces it. */
export interface EditorDoc {
  text(): string;
  /** Puts `text` in the editor (nothing when it holds it already). */
  replace(text: string): void;
}

export type Banner = { kind: 'changed' } | { kind: 'conflict'; text: string; version: string } | null;

export interface StateFileState {
  dirty: boolean;
  banner: Banner;
  compare: { mine: string; disk: string } | null;
  status: string;
  /** The browser's storage refused the last draft: the unsaved text lives only in this editor. */
  unkept: boolean;
}

export class StateFileStore extends PaneStore<StateFileState> {
  private doc: EditorDoc | null = null;
  private base: { text: string; version: string } | null = null;
  /** Edits made in the editor since it opened, and how many of them the kept draft (or the file) holds. */
  private edits = 0;
  private keptEdits = 0;
  /** True while the editor is given the file's text: that is no edit of the person's. */
  private resetting = false;
  private keepTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly api: MoriApi,
    private readonly sessionId: string,
    readonly file: EditableStateFile,
    private readonly drafts: DraftStore,
    private readonly onEvent: (l: (e: DaemonEvent) => void) => () => void,
  ) {
    super({ dirty: false, banner: null, compare: null, status: '', unkept: false });
  }

  open(): void {
    this.whileOpen(
      this.onEvent((e) => {
        if (this.doc && e.type === 'state.changed' && e.sessionId === this.sessionId && e.file === this.file) void this.refreshFromDisk();
      }),
    );
  }

  /** The editor goes: what was typed since the last pause is kept first. */
  override close(): void {
    this.keepDraft();
    super.close();
    this.doc = null;
  }

  /** The editor is ready: the file is read into it. */
  attach(doc: EditorDoc): void {
    this.doc = doc;
    void this.load();
  }

  /** Whether the editor holds the file (or a draft of it) yet: before that a change is no edit. */
  get loaded(): boolean {
    return this.base !== null;
  }

  /** One edit of the person's: the first after a clean state marks the tab at once; the text is kept when typing pauses. */
  edited(): void {
    this.edits++;
    if (this.resetting) {
      this.keptEdits = this.edits;
      return;
    }
    if (!this.state.dirty) {
      this.set({ dirty: true });
      this.drafts.markPending(this.sessionId, this.file);
    }
    this.cancelKeep();
    this.keepTimer = setTimeout(() => this.keepDraft(), DRAFT_IDLE_MS);
  }

  /** Keeps the editor's text as the draft (or, back to the file's text, no draft): the one full read of the text per pause. */
  keepDraft(): void {
    this.cancelKeep();
    const b = this.base;
    if (!this.doc || !b || this.keptEdits === this.edits) return;
    this.keptEdits = this.edits;
    const text = this.doc.text();
    if (text === b.text) {
      this.set({ dirty: false });
      this.drafts.clear(this.sessionId, this.file);
      return;
    }
    this.set({ unkept: !this.drafts.put(this.sessionId, this.file, { text, baseVersion: b.version, baseText: b.text }) });
  }

  /** Reads the file; a kept draft goes back into the editor (unless `discardDraft`), over what was read. */
  async load(discardDraft = false): Promise<void> {
    const { sessionId, file } = this;
    const r = await this.api.call('state.read', { session: sessionId, file });
    if (!r.ok) return this.set({ status: `Cannot read ${file}: ${r.message}` });
    const draft = discardDraft ? null : this.drafts.get(sessionId, file);
    this.set({ compare: null, status: '' });
    if (!draft || draft.text === r.value.text) {
      this.replaceDoc(r.value.text, r.value.version);
      this.set({ banner: null });
      return;
    }
    // The draft keeps the version it was edited from: a save against it is refused (conflict) when
    // the file changed since, and the draft is not silently moved onto the newer file.
    this.base = { text: draft.baseText, version: draft.baseVersion };
    this.doc?.replace(draft.text);
    // Edited from another version than the one on disk now: the person decides, as with a live change.
    this.set({ dirty: true, banner: draft.baseVersion === r.value.version ? null : { kind: 'changed' } });
  }

  async save(): Promise<void> {
    const { sessionId, file } = this;
    const b = this.base;
    if (!this.doc || !b) return;
    const text = this.doc.text();
    // Nothing of the person's to write (the click raced a reload, the edits were undone): writing the disk's text back is no save.
    if (text === b.text) {
      this.keptEdits = -1;
      return this.keepDraft();
    }
    // One request carries at most this much: a larger file is left as it is on disk, the edit kept as a draft.
    if (text.length > IPC_MAX_TEXT_CHARS) {
      return this.set({ status: `Not saved: ${file} would be ${text.length.toLocaleString('en')} characters; the window saves at most ${IPC_MAX_TEXT_CHARS.toLocaleString('en')} (shorten it, or edit it in your editor)` });
    }
    this.set({ status: 'Saving…' });
    const r = await this.api.call('state.write', { session: sessionId, file, text, baseVersion: b.version });
    if (!r.ok) return this.set({ status: `Not saved: ${r.message}` });
    if (r.value.outcome === 'conflict') return this.set({ banner: { kind: 'conflict', text: r.value.text, version: r.value.version }, status: '' });
    this.base = { text, version: r.value.version };
    // The person may have typed while the write was on its way: still dirty (and a draft) then.
    this.cancelKeep();
    this.keptEdits = this.edits;
    const now = this.doc?.text() ?? text;
    const dirty = now !== text;
    if (dirty) this.drafts.put(sessionId, file, { text: now, baseVersion: r.value.version, baseText: text });
    else this.drafts.clear(sessionId, file);
    this.set({ dirty, banner: null, compare: null, status: 'Saved' });
  }

  /** Shows the disk's text beside the person's, read fresh. */
  async showCompare(): Promise<void> {
    const r = await this.api.call('state.read', { session: this.sessionId, file: this.file });
    if (r.ok) this.set({ compare: { mine: this.doc?.text() ?? '', disk: r.value.text } });
  }

  closeCompare(): void {
    this.set({ compare: null });
  }

  /** The person edited their side of the compare view. */
  editMine(text: string): void {
    this.doc?.replace(text);
  }

  /** The person chose, having seen both, to put their text over the other writer's. */
  async saveOverDisk(): Promise<void> {
    const r = await this.api.call('state.read', { session: this.sessionId, file: this.file });
    if (!r.ok) return;
    this.base = { text: r.value.text, version: r.value.version };
    await this.save();
  }

  /**
   * Someone changed the file: what is on disk replaces the text only while the person has no unsaved
   * change, judged when the read answers (they may have typed meanwhile); a version already held (the
   * echo of our own save, a second event for one write) changes nothing.
   */
  private async refreshFromDisk(): Promise<void> {
    const r = await this.api.call('state.read', { session: this.sessionId, file: this.file });
    if (!r.ok || r.value.version === this.base?.version) return;
    if (this.state.dirty) this.set({ banner: this.state.banner?.kind === 'conflict' ? this.state.banner : { kind: 'changed' } });
    else this.replaceDoc(r.value.text, r.value.version);
  }

  private replaceDoc(text: string, version: string): void {
    this.base = { text, version };
    this.cancelKeep();
    this.resetting = true;
    try {
      this.doc?.replace(text);
    } finally {
      this.resetting = false;
    }
    this.keptEdits = this.edits;
    this.set({ dirty: false });
    this.drafts.clear(this.sessionId, this.file);
  }

  private cancelKeep(): void {
    if (this.keepTimer !== null) clearTimeout(this.keepTimer);
    this.keepTimer = null;
  }
}
