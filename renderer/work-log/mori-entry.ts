// Mori's own work-log entries as the work-log pane shows them: the file keeps them as one capitalised
// line (`SESSION INTERRUPTED - system sleep`, main/supervisor's store.log), the same rule the log's
// compaction uses to tell them from the agent's and the person's (main/state/work-log-compaction.ts);
// the view shows the kind as a label in sentence case and the rest as written. The file is never
// changed. Pure. Runs in the renderer.

/** An entry Mori wrote: its kind in words, how it reads (a warning or not), and the rest of its line. */
export interface MoriEntry {
  /** The capitalised kind in sentence case: `SESSION INTERRUPTED` → `Session interrupted`. */
  kind: string;
  tone: 'warn' | 'plain';
  /** The line after `KIND - `, as written. */
  words: string;
}

/** `KIND - words`: two or more capitals, words of capitals separated by single spaces, then ` - `. */
const LINE = /^([A-Z][A-Z]+(?: [A-Z]+)*) - (.*)$/s;
/** Kinds that tell of something gone wrong or held back (interrupted, limited, needs attention, hooks off, refused, not written…). */
const WARNING = /\b(?:INTERRUPTED|LIMITED|ATTENTION|OFF|REFUSED|NOT)\b/;

/** The entry as Mori's, or null when it is not one (several lines, or a line in the agent's or the person's words). */
export function moriEntry(lines: readonly string[]): MoriEntry | null {
  if (lines.length !== 1) return null;
  const m = LINE.exec(lines[0] ?? '');
  if (!m?.[1] || m[2] === undefined) return null;
  const kind = m[1].charAt(0) + m[1].slice(1).toLowerCase();
  return { kind, tone: WARNING.test(m[1]) ? 'warn' : 'plain', words: m[2] };
}
