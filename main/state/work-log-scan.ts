// A linear scanner for work_log.md entries. The log can grow to many megabytes (the agent appends
// freely), where a full markdown parse costs seconds; its structure is simple — `## ` headings — so
// this scanner reads lines once, skipping fenced code blocks (``` or ~~~) so a heading inside a
// fence is not an entry, as a markdown parser would. Pure.
import { splitLines } from './markdown-doc.js';

export interface ScannedEntry {
  heading: string;
  /** 0-based index of the heading line. */
  headingLine: number;
  /** Body lines, terminators removed. */
  body: string[];
}

export interface ScannedLog {
  lines: Buffer[];
  entries: ScannedEntry[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ENTRY_HEADING = /^ {0,3}##[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

export function scanWorkLog(bytes: Buffer): ScannedLog {
  const lines = splitLines(bytes);
  const entries: ScannedEntry[] = [];
  let fence: string | null = null;
  let current: ScannedEntry | null = null;
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as Buffer).toString('utf8').replace(/\r?\n$|\r$/, '');
    const f = FENCE.exec(text);
    if (fence !== null) {
      // A fence closes with the same character, at least as long, and nothing else on the line.
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && text.trim() === f[1]) fence = null;
      current?.body.push(text);
      continue;
    }
    if (f) {
      fence = f[1]!;
      current?.body.push(text);
      continue;
    }
    const h = ENTRY_HEADING.exec(text);
    if (h) {
      current = { heading: (h[1] ?? '').trim(), headingLine: i, body: [] };
      entries.push(current);
    } else if (/^ {0,3}#[ \t]/.test(text)) {
      current = null; // a top-level heading ends the entry
    } else {
      current?.body.push(text);
    }
  }
  return { lines, entries };
}
