// A state file in a CodeMirror 6 markdown editor (DESIGN.md §3, §13). What is on disk shows live
// while the person has no unsaved change; with unsaved changes an external edit raises a banner
// offering Reload or Compare. Unsaved text is kept as a draft (renderer/editor/draft-store.ts) through tab
// and session switches and reloads; a draft made from an older version of the file raises the same
// banner. Save (or Ctrl/Cmd+S) writes against the version read: a `conflict` answer writes nothing,
// and Compare shows the person's text beside the other writer's as a diff. CodeMirror loads when the
// first editor opens (renderer/editor/editor-setup.ts). Typing stays cheap however large the file: an edit
// only counts (CodeMirror's docChanged), and the whole text is read, compared with the file's and kept
// as the draft once the typing pauses (and when the editor goes or the page closes), never per key.
// Runs in the renderer.
import type { EditorView } from '@codemirror/view';
import type { EditorSetup } from './editor-setup.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DaemonEvent, EditableStateFile } from '../../common/ipc.js';
import { IPC_MAX_TEXT_CHARS } from '../../common/ipc-limits.js';
import type { MoriApi } from '../../common/mori-api.js';
import { CompareView } from './compare-view.js';
import type { DraftStore } from './draft-store.js';

/**
 * How long typing pauses before the text is kept as a draft: reading out and storing a large file
 * costs tens of milliseconds, which must not land between two key presses. A second is shorter than
 * anyone takes to switch tabs or reach for the close button (both keep the draft at once anyway).
 */
const DRAFT_IDLE_MS = 1_000;

type Banner = { kind: 'changed' } | { kind: 'conflict'; text: string; version: string } | null;

/** Whether a key press is the save shortcut: Ctrl+S, or Cmd+S on a Mac. */
export const isSaveKey = (e: KeyboardEvent): boolean => (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's';

export function StateEditor(props: {
  api: MoriApi;
  sessionId: string;
  file: EditableStateFile;
  drafts: DraftStore;
  onEvent: (l: (e: DaemonEvent) => void) => () => void;
}) {
  const { api, sessionId, file, drafts } = props;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const base = useRef<{ text: string; version: string } | null>(null);
  const [dirty, setDirty] = useState(false);
  const [banner, setBanner] = useState<Banner>(null);
  const [compare, setCompare] = useState<{ mine: string; disk: string } | null>(null);
  const [status, setStatus] = useState('');
  /** The browser's storage refused the last draft: the unsaved text lives only in this editor. */
  const [unkept, setUnkept] = useState(false);
  const dirtyRef = useRef(false);
  const saveRef = useRef<() => Promise<void>>(async () => undefined);
  /** Edits made in the editor since it opened, and how many of them the kept draft (or the file) holds. */
  const edits = useRef(0);
  const keptEdits = useRef(0);
  /** True while the editor is given the file's text: that is no edit of the person's. */
  const resetting = useRef(false);
  const keepTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelKeep = (): void => {
    if (keepTimer.current !== null) clearTimeout(keepTimer.current);
    keepTimer.current = null;
  };

  /** Keeps the editor's text as the draft (or, back to the file's text, no draft): the one full read of the text per pause. */
  const keepDraft = (): void => {
    cancelKeep();
    const v = view.current;
    const b = base.current;
    if (!v || !b || keptEdits.current === edits.current) return;
    keptEdits.current = edits.current;
    const text = v.state.doc.toString();
    if (text === b.text) {
      dirtyRef.current = false;
      setDirty(false);
      drafts.clear(sessionId, file);
      return;
    }
    setUnkept(!drafts.put(sessionId, file, { text, baseVersion: b.version, baseText: b.text }));
  };
  const keepDraftRef = useRef(keepDraft);
  keepDraftRef.current = keepDraft;

  /** One edit of the person's: the first after a clean state marks the tab at once; the text is kept when typing pauses. */
  const edited = (): void => {
    edits.current++;
    if (resetting.current) {
      keptEdits.current = edits.current;
      return;
    }
    if (!dirtyRef.current) {
      dirtyRef.current = true;
      setDirty(true);
      drafts.markPending(sessionId, file);
    }
    cancelKeep();
    keepTimer.current = setTimeout(() => keepDraftRef.current(), DRAFT_IDLE_MS);
  };
  const editedRef = useRef(edited);
  editedRef.current = edited;

  const setup = useRef<EditorSetup | null>(null);

  const setDoc = (text: string): void => {
    const v = view.current;
    if (!v || v.state.doc.toString() === text) return;
    setup.current?.fit(v, text.length);
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  };

  const replaceDoc = (text: string, version: string): void => {
    base.current = { text, version };
    cancelKeep();
    resetting.current = true;
    try {
      setDoc(text);
    } finally {
      resetting.current = false;
    }
    keptEdits.current = edits.current;
    dirtyRef.current = false;
    setDirty(false);
    drafts.clear(sessionId, file);
  };

  /** Reads the file; a kept draft goes back into the editor (unless `discardDraft`), over what was read. */
  const load = async (discardDraft = false): Promise<void> => {
    const r = await api.call('state.read', { session: sessionId, file });
    if (!r.ok) return setStatus(`Cannot read ${file}: ${r.message}`);
    const draft = discardDraft ? null : drafts.get(sessionId, file);
    setCompare(null);
    setStatus('');
    if (!draft || draft.text === r.value.text) {
      replaceDoc(r.value.text, r.value.version);
      setBanner(null);
      return;
    }
    // The draft keeps the version it was edited from: a save against it is refused (conflict) when
    // the file changed since, and the draft is not silently moved onto the newer file.
    base.current = { text: draft.baseText, version: draft.baseVersion };
    setDoc(draft.text);
    dirtyRef.current = true;
    setDirty(true);
    // Edited from another version than the one on disk now: the person decides, as with a live change.
    setBanner(draft.baseVersion === r.value.version ? null : { kind: 'changed' });
  };

  /**
   * Someone changed the file: what is on disk replaces the text only while the person has no unsaved
   * change, judged when the read answers (they may have typed meanwhile); a version already held (the
   * echo of our own save, a second event for one write) changes nothing.
   */
  const refreshFromDisk = async (): Promise<void> => {
    const r = await api.call('state.read', { session: sessionId, file });
    if (!r.ok || r.value.version === base.current?.version) return;
    if (dirtyRef.current) setBanner((b) => (b?.kind === 'conflict' ? b : { kind: 'changed' }));
    else replaceDoc(r.value.text, r.value.version);
  };

  useEffect(() => {
    let v: EditorView | null = null;
    let gone = false;
    const off = props.onEvent((e) => {
      if (v && e.type === 'state.changed' && e.sessionId === sessionId && e.file === file) void refreshFromDisk();
    });
    void import('./editor-setup.js').then((cm) => {
      if (gone) return;
      const fit = new cm.EditorSetup(`${file} text`);
      setup.current = fit;
      v = new cm.EditorView({
        parent: host.current as HTMLDivElement,
        extensions: [
          cm.Prec.highest(cm.keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (void saveRef.current(), true) }])),
          fit.extensions,
          cm.EditorView.updateListener.of((u) => {
            if (u.docChanged && base.current) editedRef.current();
          }),
        ],
      });
      view.current = v;
      void load();
    });
    // Closing or reloading the page keeps what was typed since the last pause.
    const onLeave = (): void => keepDraftRef.current();
    window.addEventListener('pagehide', onLeave);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      gone = true;
      off();
      window.removeEventListener('pagehide', onLeave);
      window.removeEventListener('beforeunload', onLeave);
      keepDraftRef.current();
      v?.destroy();
      view.current = null;
    };
  }, [sessionId, file]);

  const save = async (): Promise<void> => {
    const v = view.current;
    const b = base.current;
    if (!v || !b) return;
    const text = v.state.doc.toString();
    // Nothing of the person's to write (the click raced a reload, the edits were undone): writing the disk's text back is no save.
    if (text === b.text) {
      keptEdits.current = -1;
      return keepDraft();
    }
    // One request carries at most this much: a larger file is left as it is on disk, the edit kept as a draft.
    if (text.length > IPC_MAX_TEXT_CHARS) {
      return setStatus(`Not saved: ${file} would be ${text.length.toLocaleString('en')} characters; the window saves at most ${IPC_MAX_TEXT_CHARS.toLocaleString('en')} (shorten it, or edit it in your editor)`);
    }
    setStatus('Saving…');
    const r = await api.call('state.write', { session: sessionId, file, text, baseVersion: b.version });
    if (!r.ok) return setStatus(`Not saved: ${r.message}`);
    if (r.value.outcome === 'conflict') {
      setBanner({ kind: 'conflict', text: r.value.text, version: r.value.version });
      setStatus('');
      return;
    }
    base.current = { text, version: r.value.version };
    // The person may have typed while the write was on its way: still dirty (and a draft) then.
    cancelKeep();
    keptEdits.current = edits.current;
    const now = view.current?.state.doc.toString() ?? text;
    dirtyRef.current = now !== text;
    setDirty(dirtyRef.current);
    if (dirtyRef.current) drafts.put(sessionId, file, { text: now, baseVersion: r.value.version, baseText: text });
    else drafts.clear(sessionId, file);
    setBanner(null);
    setCompare(null);
    setStatus('Saved');
  };
  saveRef.current = save;

  /** Shows the disk's text beside the person's, read fresh. */
  const showCompare = async (): Promise<void> => {
    const r = await api.call('state.read', { session: sessionId, file });
    if (r.ok) setCompare({ mine: view.current?.state.doc.toString() ?? '', disk: r.value.text });
  };

  /** The person chose, having seen both, to put their text over the other writer's. */
  const saveOverDisk = async (): Promise<void> => {
    const r = await api.call('state.read', { session: sessionId, file });
    if (!r.ok) return;
    base.current = { text: r.value.text, version: r.value.version };
    await save();
  };

  return (
    <div
      class="editor-pane"
      onKeyDown={(e) => {
        // Outside the editor too (the Save button, the compare view): the browser's own Save is never wanted here.
        if (!isSaveKey(e)) return;
        e.preventDefault();
        void save();
      }}
    >
      <div class="editor-bar">
        <button type="button" onClick={() => void save()} disabled={!dirty || banner?.kind === 'conflict'} title="Save (Ctrl+S)">
          Save
        </button>
        <span class="muted" role="status">
          {!dirty || (status !== '' && status !== 'Saved') ? status : unkept ? 'This browser refused to keep the unsaved text (storage full?): save it before leaving' : 'Unsaved changes (kept in this browser until saved)'}
        </span>
      </div>
      {banner ? (
        <div class={`banner ${banner.kind === 'conflict' ? 'banner-error' : ''}`} role="alert">
          <span>{banner.kind === 'conflict' ? `Not saved: ${file} changed on disk since you opened it. Nothing was overwritten.` : `${file} changed on disk while you were editing.`}</span>
          <button type="button" onClick={() => void load(true)}>
            Reload
          </button>
          <button type="button" onClick={() => void showCompare()}>
            Compare
          </button>
        </div>
      ) : null}
      <div class="editor-host" ref={host} hidden={compare !== null} />
      {compare !== null ? (
        <section class="compare" aria-label={`${file} compared with the disk`}>
          <div class="compare-bar">
            <strong>Your text and {file} on disk</strong>
            <button type="button" onClick={() => void load(true)}>
              Use the disk version
            </button>
            <button type="button" onClick={() => void saveOverDisk()}>
              Save mine over it
            </button>
            <button type="button" onClick={() => setCompare(null)}>
              Close
            </button>
          </div>
          <CompareView file={file} mine={compare.mine} disk={compare.disk} onMineChange={setDoc} />
        </section>
      ) : null}
    </div>
  );
}
