// Writes a service's new pid back into environment.md in the seed's `(pid N)` form (DESIGN.md §3),
// as a splice of that one line: every other byte of the file stays as it was. Pure: bytes in, bytes out.
import type { MarkdownDoc } from '../state/markdown-doc.js';

const PAREN_PID = /\(\s*pid\s*[:=#]?\s*\d+\s*\)/i;
const BARE_PID = /\bpid\b(\s*[:=#]?\s*)\d+\b/i;
const START = /\s+start(?: command)?\s*:/i;
const ITEM_START = /^\s*([-*+]|\d+[.)])\s/;

/**
 * The file with `(pid N)` set to `pid` in the list item that starts on `itemLine` (0-based): an
 * existing pid in the item's lines is replaced; otherwise ` (pid N)` goes before ` start:` or at the
 * end of the item's first line. Null when that line is not there.
 */
export function withPid(doc: MarkdownDoc, itemLine: number, pid: number): Buffer | null {
  if (itemLine < 0 || itemLine >= doc.lines.length) return null;
  // The item's own lines: its first, then continuation lines up to a blank line or the next item.
  let last = itemLine;
  for (let i = itemLine + 1; i < doc.lines.length; i++) {
    const t = doc.lineText(i);
    if (t.trim() === '' || ITEM_START.test(t) || /^#{1,6}\s/.test(t)) break;
    last = i;
  }
  let target = -1;
  let replaced = '';
  for (let i = itemLine; i <= last && target < 0; i++) {
    const t = doc.lineText(i);
    if (PAREN_PID.test(t)) replaced = t.replace(PAREN_PID, `(pid ${pid})`);
    else if (BARE_PID.test(t)) replaced = t.replace(BARE_PID, (_m, sep: string) => `pid${sep}${pid}`);
    else continue;
    target = i;
  }
  if (target < 0) {
    target = itemLine;
    const t = doc.lineText(itemLine);
    const s = START.exec(t);
    replaced = s ? `${t.slice(0, s.index)} (pid ${pid})${t.slice(s.index)}` : `${t.replace(/\s+$/, '')} (pid ${pid})${t.slice(t.replace(/\s+$/, '').length)}`;
  }
  const original = doc.lines[target];
  if (original === undefined) return null;
  const eol = /\r\n$|\n$|\r$/.exec(original.toString('latin1'))?.[0] ?? '';
  return Buffer.concat([...doc.lines.slice(0, target), Buffer.from(replaced + eol, 'utf8'), ...doc.lines.slice(target + 1)]);
}
