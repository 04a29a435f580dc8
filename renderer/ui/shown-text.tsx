// Text an agent could have written, as the window shows it (DESIGN.md §11): through
// common/visible-text.ts, so a control or bidi character is an escape the person sees (`\e`,
// `\u202e`), marked, and never moves, hides or reorders the text around it. Runs in the renderer.
import { visibleParts, visibleText } from '../../common/visible-text.js';

/** One line of agent text (a newline in it is shown as `\n`), its escapes marked. */
export function Shown(props: { text: string }) {
  const parts = visibleParts(props.text);
  if (parts.length === 1 && parts[0]?.escape === false) return <>{parts[0].text}</>;
  return (
    <>
      {parts.map((p, i) =>
        p.escape ? (
          <span key={i} class="shown-escape">
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

/** Lines of agent text (screen lines, a work-log entry, a command's output): newlines kept, each line shown. */
export function ShownLines(props: { text: string }) {
  const lines = props.text.split('\n');
  return (
    <>
      {lines.map((l, i) => (
        <span key={i}>
          {i > 0 ? '\n' : ''}
          <Shown text={l} />
        </span>
      ))}
    </>
  );
}

/** For attributes (aria-label, title) and status words: the shown text as a string. */
export const shown = visibleText;
