// A state file in a CodeMirror 6 markdown editor (DESIGN.md §3, §13). What is on disk shows live
// while the person has no unsaved change; with unsaved changes an external edit raises a banner
// offering Reload or Compare. Unsaved text is kept as a draft (renderer/editor/draft-store.ts) through
// tab and session switches and reloads; a draft made from an older version of the file raises the same
// banner. Save (or Ctrl/Cmd+S) writes against the version read: a `conflict` answer writes nothing,
// and Compare shows the person's text beside the other writer's as a diff. CodeMirror loads when the
// first editor opens (renderer/editor/editor-setup.ts). The state, the drafts and the calls are
// state-file-store.ts's; this view holds the editor, whose edits it only counts there.
// Runs in the renderer.
import type { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import type { DaemonEvent, EditableStateFile } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { usePane } from '../ui/pane-store.js';
import { CompareView } from './compare-view.js';
import type { DraftStore } from './draft-store.js';
import { StateFileStore } from './state-file-store.js';

/** Whether a key press is the save shortcut: Ctrl+S, or Cmd+S on a Mac. */
export const isSaveKey = (e: KeyboardEvent): boolean => (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's';

export function StateEditor(props: {
  api: MoriApi;
  sessionId: string;
  file: EditableStateFile;
  drafts: DraftStore;
  onEvent: (l: (e: DaemonEvent) => void) => () => void;
}) {
  const { file } = props;
  const [store, { dirty, banner, compare, status, unkept }] = usePane(() => new StateFileStore(props.api, props.sessionId, file, props.drafts, props.onEvent));
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let v: EditorView | null = null;
    let gone = false;
    void import('./editor-setup.js').then((cm) => {
      if (gone) return;
      const fit = new cm.EditorSetup(`${file} text`);
      const view = new cm.EditorView({
        parent: host.current as HTMLDivElement,
        extensions: [
          cm.Prec.highest(cm.keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (void store.save(), true) }])),
          fit.extensions,
          cm.EditorView.updateListener.of((u) => {
            if (u.docChanged && store.loaded) store.edited();
          }),
        ],
      });
      v = view;
      store.attach({
        text: () => view.state.doc.toString(),
        replace: (text) => {
          if (view.state.doc.toString() === text) return;
          fit.fit(view, text.length);
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
        },
      });
    });
    // Closing or reloading the page keeps what was typed since the last pause.
    const onLeave = (): void => store.keepDraft();
    window.addEventListener('pagehide', onLeave);
    window.addEventListener('beforeunload', onLeave);
    return () => {
      gone = true;
      window.removeEventListener('pagehide', onLeave);
      window.removeEventListener('beforeunload', onLeave);
      // The store closes (keeping the draft) before the editor it reads goes.
      store.close();
      v?.destroy();
    };
  }, [store]);

  return (
    <div
      class="editor-pane"
      onKeyDown={(e) => {
        // Outside the editor too (the Save button, the compare view): the browser's own Save is never wanted here.
        if (!isSaveKey(e)) return;
        e.preventDefault();
        void store.save();
      }}
    >
      <div class="editor-bar">
        <button type="button" onClick={() => void store.save()} disabled={!dirty || banner?.kind === 'conflict'} title="Save (Ctrl+S)">
          Save
        </button>
        <span class="muted" role="status">
          {!dirty || (status !== '' && status !== 'Saved') ? status : unkept ? 'This browser refused to keep the unsaved text (storage full?): save it before leaving' : 'Unsaved changes (kept in this browser until saved)'}
        </span>
      </div>
      {banner ? (
        <div class={`banner ${banner.kind === 'conflict' ? 'banner-error' : ''}`} role="alert">
          <span>{banner.kind === 'conflict' ? `Not saved: ${file} changed on disk since you opened it. Nothing was overwritten.` : `${file} changed on disk while you were editing.`}</span>
          <button type="button" onClick={() => void store.load(true)}>
            Reload
          </button>
          <button type="button" onClick={() => void store.showCompare()}>
            Compare
          </button>
        </div>
      ) : null}
      <div class="editor-host" ref={host} hidden={compare !== null} />
      {compare !== null ? (
        <section class="compare" aria-label={`${file} compared with the disk`}>
          <div class="compare-bar">
            <strong>Your text and {file} on disk</strong>
            <button type="button" onClick={() => void store.load(true)}>
              Use the disk version
            </button>
            <button type="button" onClick={() => void store.saveOverDisk()}>
              Save mine over it
            </button>
            <button type="button" onClick={() => store.closeCompare()}>
              Close
            </button>
          </div>
          <CompareView file={file} mine={compare.mine} disk={compare.disk} onMineChange={(text) => store.editMine(text)} />
        </section>
      ) : null}
    </div>
  );
}
