// The Changes tab's syntax highlighting (DESIGN.md §13): the CodeMirror language of a changed file, by
// its name, loaded only when a file of that language is shown (each language package is a chunk of
// its own: the tab's script does not grow with every language), and the code's colours in the page's
// variables so both themes read. Runs in the renderer.
import { HighlightStyle, syntaxHighlighting, type LanguageSupport } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags as t } from '@lezer/highlight';

/** The languages the tab knows, each loaded on first use. */
const LOADERS: Record<string, () => Promise<LanguageSupport>> = {
  javascript: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ jsx: true })),
  typescript: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: true, jsx: true })),
  css: () => import('@codemirror/lang-css').then((m) => m.css()),
  html: () => import('@codemirror/lang-html').then((m) => m.html()),
  markdown: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
};

/** File extensions (lowercase, without the dot) to the language that reads them. */
const BY_EXTENSION: Record<string, keyof typeof LOADERS> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescript',
  css: 'css',
  html: 'html', htm: 'html', vue: 'html', svelte: 'html',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
};

/** The language a file's name says it is in, or null (plain text). */
export function languageName(path: string): string | null {
  const base = path.split('/').pop() ?? path;
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null;
}

/** The highlighting of a file's language, loaded on first use; null for plain text or a language that would not load. */
export async function languageFor(path: string): Promise<LanguageSupport | null> {
  const name = languageName(path);
  if (name === null) return null;
  try {
    return await (LOADERS[name] as () => Promise<LanguageSupport>)();
  } catch {
    // A chunk that failed to load (the page's server went away): the diff shows, uncoloured.
    return null;
  }
}

/** Code's colours in the page's variables (CodeMirror's default style is for light backgrounds only). */
export const codeHighlight: Extension = syntaxHighlighting(
  HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword, t.definitionKeyword, t.modifier], color: 'var(--syn-keyword)' },
    { tag: [t.string, t.special(t.string), t.regexp, t.character], color: 'var(--syn-code)' },
    { tag: [t.number, t.bool, t.atom, t.null], color: 'var(--syn-link)' },
    { tag: [t.comment, t.lineComment, t.blockComment, t.docComment, t.meta, t.processingInstruction], color: 'var(--muted)', fontStyle: 'italic' },
    { tag: [t.typeName, t.className, t.namespace, t.tagName], color: 'var(--syn-heading)' },
    { tag: [t.function(t.variableName), t.function(t.propertyName), t.attributeName], color: 'var(--syn-link)' },
    { tag: t.heading, fontWeight: '700', color: 'var(--syn-heading)' },
    { tag: t.strong, fontWeight: '700' },
    { tag: t.emphasis, fontStyle: 'italic' },
    { tag: [t.link, t.url], color: 'var(--syn-link)', textDecoration: 'underline' },
    { tag: t.invalid, color: 'var(--bad)' },
  ]),
);
