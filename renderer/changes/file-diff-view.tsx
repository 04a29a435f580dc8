// One changed file in the Changes tab (DESIGN.md §13): the checkpoint's text beside the work tree's,
// as a read-only CodeMirror merge view (@codemirror/merge) with changed lines and words marked and
// unchanged stretches folded; a binary or too-big file shows its patch (or why there is none).
// Runs in the renderer.
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { minimalSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';
import type { FileDiff } from '../../common/checkpoints.js';
import { lineCounts } from './checkpoint-timeline.js';
import { Shown, ShownLines, shown } from '../ui/shown-text.js';

/** Unchanged lines kept around each change before the rest folds: enough to see where it is. */
const CONTEXT_LINES = 3;

const readOnly = (label: string) => [minimalSetup, lineNumbers(), EditorView.lineWrapping, EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.contentAttributes.of({ 'aria-label': label })];

/** Both sides as text, when the API sent them (an absent side is empty: the file was added or deleted). */
function sides(d: FileDiff): { before: string; after: string } | null {
  if (d.binary) return null;
  const before = d.before ?? (d.kind === 'added' ? '' : null);
  const after = d.after ?? (d.kind === 'deleted' ? '' : null);
  return before === null || after === null ? null : { before, after };
}

export function FileDiffView(props: { diff: FileDiff; checkpointLabel: string }) {
  const { diff } = props;
  const host = useRef<HTMLDivElement>(null);
  const text = sides(diff);

  useEffect(() => {
    if (!text || !host.current) return;
    const view = new MergeView({
      parent: host.current,
      a: { doc: text.before, extensions: readOnly(`${diff.path} at ${props.checkpointLabel}`) },
      b: { doc: text.after, extensions: readOnly(`${diff.path} now`) },
      collapseUnchanged: { margin: CONTEXT_LINES },
    });
    return () => view.destroy();
  }, [diff, props.checkpointLabel]);

  return (
    <section class="merge changes-diff" aria-label={shown(`${diff.path} changes since ${props.checkpointLabel}`)}>
      <div class="changes-diff-title">
        <strong>
          <Shown text={diff.path} />
        </strong> <span class="tag">{diff.kind}</span> <span class="muted">{lineCounts(diff)}</span>
        {diff.oldMode !== diff.newMode && diff.oldMode !== '000000' && diff.newMode !== '000000' ? (
          <span class="muted">
            {' '}
            mode {diff.oldMode} → {diff.newMode}
          </span>
        ) : null}
      </div>
      {text ? (
        <>
          <div class="merge-heads" aria-hidden="true">
            <span>At {props.checkpointLabel}</span>
            <span>Now</span>
          </div>
          <div class="merge-host" ref={host} />
        </>
      ) : diff.binary ? (
        <p class="empty">A binary file: no text to compare.</p>
      ) : (
        <pre class="changes-patch" aria-label={shown(`${diff.path} patch`)}>
          {diff.patch ? <ShownLines text={diff.patch} /> : 'Too big to show here: `mori changes` prints its patch.'}
        </pre>
      )}
    </section>
  );
}
