// The compare view of a state file (DESIGN.md §13): the person's unsaved text beside what is on disk,
// as a CodeMirror merge view (@codemirror/merge) with the changed lines and words marked, unchanged
// stretches folded, and a control per chunk that takes the disk's lines into the person's text. The
// person's side stays editable; every change there goes back to the editor (and so to the draft).
// CodeMirror and the merge view load on demand. Runs in the renderer.
import type { MergeView } from '@codemirror/merge';
import { useEffect, useRef } from 'preact/hooks';

/** Unchanged lines kept around each change before the rest folds: enough to see where it is. */
const CONTEXT_LINES = 3;

export function CompareView(props: { file: string; mine: string; disk: string; onMineChange: (text: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onMineChange);
  onChange.current = props.onMineChange;

  useEffect(() => {
    let view: MergeView | null = null;
    let gone = false;
    void Promise.all([import('./editor-setup.js'), import('@codemirror/merge')]).then(([cm, merge]) => {
      if (gone) return;
      view = new merge.MergeView({
        parent: host.current as HTMLDivElement,
        a: {
          doc: props.mine,
          extensions: [
            cm.editorExtensions(`${props.file}: your text`),
            cm.EditorView.updateListener.of((u) => {
              if (u.docChanged) onChange.current(u.state.doc.toString());
            }),
          ],
        },
        b: {
          doc: props.disk,
          extensions: [cm.editorExtensions(`${props.file}: on disk`), cm.EditorState.readOnly.of(true), cm.EditorView.editable.of(false)],
        },
        revertControls: 'b-to-a',
        collapseUnchanged: { margin: CONTEXT_LINES },
      });
    });
    return () => {
      gone = true;
      view?.destroy();
    };
  }, [props.file, props.disk]);

  return (
    <div class="merge">
      <div class="merge-heads" aria-hidden="true">
        <span>Yours (unsaved)</span>
        <span>On disk</span>
      </div>
      <div class="merge-host" ref={host} />
    </div>
  );
}
