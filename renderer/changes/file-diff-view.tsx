// One changed file in the Changes tab (DESIGN.md §13): a read-only CodeMirror diff (@codemirror/merge)
// of the checkpoint's text and the work tree's, unified by default (the checkpoint's lines shown
// above the ones that replaced them, in one column) or side by side on request for a modified file
// (an added or deleted file has one side only: always unified), coloured by the file's language
// (diff-languages.ts, loaded on first use), with changed lines and words marked and unchanged
// stretches folded; a binary or too-big file shows its patch (or why there is none). Runs in the
// renderer.
import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, lineNumbers, ViewPlugin } from '@codemirror/view';
import { minimalSetup } from 'codemirror';
import { useEffect, useRef } from 'preact/hooks';
import type { FileDiff } from '../../common/checkpoints.js';
import { lineCounts } from './checkpoint-timeline.js';
import { codeHighlight, languageFor } from './diff-languages.js';
import type { DiffLayout } from './changes-prefs.js';
import { Shown, ShownLines, shown } from '../ui/shown-text.js';
import { isDark, onDarkChange } from '../ui/theme.js';

/** Unchanged lines kept around each change before the rest folds: enough to see where it is. */
const CONTEXT_LINES = 3;

/** The dark flag (which @codemirror/merge's colours for inserted and deleted text read) following the window's theme while the view lives. */
function followDark(): Extension {
  const scheme = new Compartment();
  const follow = ViewPlugin.define((view) => ({ destroy: onDarkChange((dark) => view.dispatch({ effects: scheme.reconfigure(EditorView.darkTheme.of(dark)) })) }));
  return [scheme.of(EditorView.darkTheme.of(isDark())), follow];
}

const readOnly = (label: string, language: Extension): Extension[] => [
  followDark(),
  minimalSetup,
  lineNumbers(),
  EditorView.lineWrapping,
  EditorState.readOnly.of(true),
  EditorView.editable.of(false),
  language,
  codeHighlight,
  EditorView.contentAttributes.of({ 'aria-label': label }),
];

/** Both sides as text, when the API sent them (an absent side is empty: the file was added or deleted). */
function sides(d: FileDiff): { before: string; after: string } | null {
  if (d.binary) return null;
  const before = d.before ?? (d.kind === 'added' ? '' : null);
  const after = d.after ?? (d.kind === 'deleted' ? '' : null);
  return before === null || after === null ? null : { before, after };
}

/** A file with two sides to set beside each other: a modified one. */
export const hasTwoSides = (d: FileDiff): boolean => d.kind !== 'added' && d.kind !== 'deleted';

export function FileDiffView(props: { diff: FileDiff; checkpointLabel: string; layout: DiffLayout; onLayout: (l: DiffLayout) => void }) {
  const { diff } = props;
  const host = useRef<HTMLDivElement>(null);
  const text = sides(diff);
  const twoSides = hasTwoSides(diff);
  const layout = twoSides ? props.layout : 'unified';

  useEffect(() => {
    if (!text || !host.current) return;
    const parent = host.current;
    let gone = false;
    let destroy = (): void => undefined;
    // The language loads first (a chunk of its own, quick once cached): the view is built once, coloured.
    void languageFor(diff.path).then((lang) => {
      if (gone) return;
      const language = lang ?? [];
      if (layout === 'unified') {
        const view = new EditorView({
          parent,
          doc: text.after,
          extensions: [
            readOnly(`${diff.path} changes since ${props.checkpointLabel}, unified`, language),
            unifiedMergeView({ original: text.before, mergeControls: false, collapseUnchanged: { margin: CONTEXT_LINES } }),
          ],
        });
        destroy = () => view.destroy();
      } else {
        const view = new MergeView({
          parent,
          a: { doc: text.before, extensions: readOnly(`${diff.path} at ${props.checkpointLabel}`, language) },
          b: { doc: text.after, extensions: readOnly(`${diff.path} now`, language) },
          collapseUnchanged: { margin: CONTEXT_LINES },
        });
        destroy = () => view.destroy();
      }
    });
    return () => {
      gone = true;
      destroy();
    };
  }, [diff, props.checkpointLabel, layout]);

  return (
    <section class="merge changes-diff" aria-label={shown(`${diff.path} changes since ${props.checkpointLabel}`)}>
      <div class="changes-diff-title">
        <span>
          <strong>
            <Shown text={diff.path} />
          </strong>{' '}
          <span class="tag">{diff.kind}</span> <span class="muted">{lineCounts(diff)}</span>
          {diff.oldMode !== diff.newMode && diff.oldMode !== '000000' && diff.newMode !== '000000' ? (
            <span class="muted">
              {' '}
              mode {diff.oldMode} → {diff.newMode}
            </span>
          ) : null}
        </span>
        {text && twoSides ? (
          <span class="diff-layout" role="group" aria-label="Diff layout">
            {(['unified', 'split'] as const).map((l) => (
              <button type="button" key={l} aria-pressed={layout === l} onClick={() => props.onLayout(l)}>
                {l === 'unified' ? 'Unified' : 'Side by side'}
              </button>
            ))}
          </span>
        ) : null}
      </div>
      {text ? (
        <>
          {layout === 'split' ? (
            <div class="merge-heads" aria-hidden="true">
              <span>At {props.checkpointLabel}</span>
              <span>Now</span>
            </div>
          ) : null}
          <div class="merge-host" ref={host} key={layout} />
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
