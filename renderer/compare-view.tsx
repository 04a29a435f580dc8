// The compare view of a state file (DESIGN.md §13): the person's unsaved text beside what is on disk,
// as a CodeMirror merge view (@codemirror/merge) with the changed lines and words marked, unchanged
// stretches folded, and a control per chunk that takes the disk's lines into the person's text. The
// person's side stays editable; every change there goes back to the editor (and so to the draft).
// Runs in the renderer.
import { markdown } from '@codemirror/lang-markdown';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';

/** Unchanged lines kept around each change before the rest folds: enough to see where it is. */
const CONTEXT_LINES = 3;

export function CompareView(props: { file: string; mine: string; disk: string; onMineChange: (text: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onMineChange);
  onChange.current = props.onMineChange;

  useEffect(() => {
    const view = new MergeView({
      parent: host.current as HTMLDivElement,
      a: {
        doc: props.mine,
        extensions: [
          basicSetup,
          markdown(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': `${props.file}: your text` }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChange.current(u.state.doc.toString());
          }),
        ],
      },
      b: {
        doc: props.disk,
        extensions: [basicSetup, markdown(), EditorView.lineWrapping, EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.contentAttributes.of({ 'aria-label': `${props.file}: on disk` })],
      },
      revertControls: 'b-to-a',
      collapseUnchanged: { margin: CONTEXT_LINES },
    });
    return () => view.destroy();
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
