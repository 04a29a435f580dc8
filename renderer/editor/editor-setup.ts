// CodeMirror for the state-file editors and the compare view, loaded on demand (the window's first
// paint does not wait for it): the editor's setup (basic setup, markdown, wrapping) and its look in
// the page's colours. Every colour is one of styles.css's variables, so the light and dark themes
// switch with the page; the dark flag (which CodeMirror's own and @codemirror/merge's base themes
// read) follows the window's theme live. A document too large for markdown's parse on every key
// press (LARGE_DOC_CHARS) is edited as plain text with a lean setup. Runs in the renderer.
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import { searchKeymap } from '@codemirror/search';
import { highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, ViewPlugin } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { EditorView, basicSetup, minimalSetup } from 'codemirror';
import { isDark, onDarkChange } from '../ui/theme.js';

export { EditorState, EditorView, Prec, keymap };

const theme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--panel)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)', borderLeftWidth: '2px' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
    backgroundColor: 'var(--selection)',
  },
  '.cm-gutters': { backgroundColor: 'var(--sunken)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)', color: 'var(--text)' },
  '.cm-selectionMatch': { backgroundColor: 'var(--match)' },
  '.cm-searchMatch': { backgroundColor: 'var(--match)', outline: '1px solid var(--control-border)' },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'var(--selection)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--match)', outline: '1px solid var(--control-border)' },
  '.cm-panels': { backgroundColor: 'var(--sunken)', color: 'var(--text)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-textfield, .cm-button': { backgroundColor: 'var(--panel)', backgroundImage: 'none', color: 'var(--text)', border: '1px solid var(--control-border)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--control-border)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--sunken)', color: 'var(--muted)', border: '1px solid var(--control-border)' },
});

/** Markdown's marks in the page's colours (CodeMirror's default style is for light backgrounds only). */
const highlight = HighlightStyle.define([
  { tag: t.heading, fontWeight: '700', color: 'var(--syn-heading)' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: [t.link, t.url], color: 'var(--syn-link)', textDecoration: 'underline' },
  { tag: t.monospace, color: 'var(--syn-code)' },
  { tag: t.quote, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [t.processingInstruction, t.meta, t.contentSeparator, t.labelName, t.comment], color: 'var(--muted)' },
  { tag: [t.keyword, t.atom, t.bool], color: 'var(--syn-keyword)' },
  { tag: [t.string, t.number], color: 'var(--syn-code)' },
  { tag: t.invalid, color: 'var(--bad)' },
]);

/**
 * The page's look, with a dark flag that follows the window's theme (ui/theme.ts) while the view lives: a view
 * plugin lives exactly as long as its view, so the listener goes when the view is destroyed.
 */
function pageLook(): Extension {
  const scheme = new Compartment();
  const follow = ViewPlugin.define((view) => {
    const off = onDarkChange((dark) => view.dispatch({ effects: scheme.reconfigure(EditorView.darkTheme.of(dark)) }));
    return { destroy: off };
  });
  return [scheme.of(EditorView.darkTheme.of(isDark())), theme, syntaxHighlighting(highlight), follow];
}

/**
 * Documents longer than this (in characters, about a megabyte) are edited without markdown's syntax
 * tree and basicSetup's extras (autocompletion, bracket matching, folding, selection matches), which
 * each re-read the tree on a key press: on a 5 MB file that is hundreds of milliseconds per key.
 * A state file this large is far past what anyone reads; it stays editable, without colours.
 */
export const LARGE_DOC_CHARS = 1_000_000;

const fullSetup = (): Extension => [basicSetup, markdown()];
const leanSetup = (): Extension => [minimalSetup, lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), keymap.of(searchKeymap)];

/** An editor's setup, which `fit` switches to the lean one for a large document (and back). */
export class EditorSetup {
  private readonly setup = new Compartment();
  private large = false;
  readonly extensions: Extension[];

  constructor(label: string) {
    this.extensions = [this.setup.of(fullSetup()), EditorView.lineWrapping, pageLook(), EditorView.contentAttributes.of({ 'aria-label': label })];
  }

  /** Before a document of `length` characters goes in: the setup that keeps typing in it quick. */
  fit(view: EditorView, length: number): void {
    const large = length > LARGE_DOC_CHARS;
    if (large === this.large) return;
    this.large = large;
    view.dispatch({ effects: this.setup.reconfigure(large ? leanSetup() : fullSetup()) });
  }
}

/** The extensions every state-file editor has: the setup, markdown, wrapping, the page's look, a name for assistive technology. */
export function editorExtensions(label: string): Extension[] {
  return [basicSetup, markdown(), EditorView.lineWrapping, pageLook(), EditorView.contentAttributes.of({ 'aria-label': label })];
}
