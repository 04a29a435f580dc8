// A lossless, section-aware view of one markdown state file (DESIGN.md §3). Runs in any Node process.
//
// The file is kept as its original bytes split into lines (each with its own terminator), so an edit
// replaces whole lines of one section and every other byte — odd encodings, CRLF, trailing spaces,
// unknown sections — is written back exactly as it was. Headings come from a real markdown parser
// (mdast-util-from-markdown), so a `## ` inside a code fence is not a heading. Only the file's first
// MARKDOWN_PARSE_MAX_BYTES are parsed: an agent can write a state file of any size.
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Heading, List, ListItem, Root, RootContent } from 'mdast';

/**
 * The most of a file the markdown parser reads. A state file is a page or two of notes (1–10 KB), but
 * an agent can write one of any size, and the parser is slow (~100–200 KB/s here) and quadratic in
 * the number of lists: a 5 MB file never finished, on the event loop of whoever reads it (the daemon,
 * at every resume's verification). 64 KB keeps a 1,000-line environment.md (~45 KB, a few long
 * lists) whole; its worst shape found (short sections, each a heading and a two-item list) still
 * takes 0.2–0.4 s at 16 KB, 0.6–0.9 s at 32 KB and ~4.3 s at 64 KB.
 */
export const MARKDOWN_PARSE_MAX_BYTES = 64 * 1024;

export interface Section {
  /** Heading text as written, trimmed, without the `#` marks. */
  heading: string;
  /** Normalised heading used for matching: lowercase, single spaces, no trailing colon or emphasis. */
  key: string;
  depth: number;
  /** 0-based index of the heading's first line. */
  headingLine: number;
  /** 0-based index of the first body line (the line after the heading). */
  bodyStart: number;
  /**
   * 0-based index one past the last body line: the next heading of any level, or EOF. A sub-heading
   * starts a section of its own, so its items are never read (or edited) twice.
   */
  bodyEnd: number;
}

export interface SectionItem {
  /** Text of the list item (its first paragraph), marker removed, lines joined with a space. */
  text: string;
  /** 0-based line of the item's marker. */
  line: number;
  ordered: boolean;
}

export class MarkdownDoc {
  /** Every line with its terminator (`\n`, `\r\n`, `\r` or none for the last), as raw bytes. */
  readonly lines: readonly Buffer[];
  /** The UTF-8 decoding of the file (invalid bytes become U+FFFD; line structure is unchanged). */
  readonly text: string;
  readonly sections: readonly Section[];
  /**
   * Lines parsed: all of them, or those that end within MARKDOWN_PARSE_MAX_BYTES. Sections and items
   * come from these only; the last section found ends where they end.
   */
  readonly parsedLines: number;
  private readonly tree: Root;

  constructor(readonly bytes: Buffer) {
    this.lines = splitLines(bytes);
    this.text = bytes.toString('utf8');
    let parsedBytes = 0;
    let parsedLines = 0;
    for (const line of this.lines) {
      if (parsedBytes + line.length > MARKDOWN_PARSE_MAX_BYTES) break;
      parsedBytes += line.length;
      parsedLines++;
    }
    this.parsedLines = parsedLines;
    // Cut at a line end, so the decoded head is exactly the start of `text` (offsets hold for both).
    this.tree = fromMarkdown(parsedLines === this.lines.length ? this.text : bytes.subarray(0, parsedBytes).toString('utf8'));
    this.sections = findSections(this.tree, parsedLines);
  }

  /** Whether only the head of the file was parsed (it is larger than MARKDOWN_PARSE_MAX_BYTES). */
  get truncated(): boolean {
    return this.parsedLines < this.lines.length;
  }

  static fromString(text: string): MarkdownDoc {
    return new MarkdownDoc(Buffer.from(text, 'utf8'));
  }

  /** Decoded text of one line, without its terminator. */
  lineText(index: number): string {
    const line = this.lines[index];
    return line === undefined ? '' : line.toString('utf8').replace(/\r?\n$|\r$/, '');
  }

  /** Sections whose key matches one of the given names (already normalised), in file order. */
  findAll(names: readonly string[]): Section[] {
    return this.sections.filter((s) => names.includes(s.key));
  }

  find(names: readonly string[]): Section | undefined {
    return this.sections.find((s) => names.includes(s.key));
  }

  /** Body lines of a section as text, without terminators. */
  bodyLines(section: Section): string[] {
    const out: string[] = [];
    for (let i = section.bodyStart; i < section.bodyEnd; i++) out.push(this.lineText(i));
    return out;
  }

  /**
   * The list items directly inside a section (not nested sub-items, not text in code fences). Non-list
   * paragraphs are returned as items too, one per paragraph, so free-form notes are not lost.
   */
  items(section: Section): SectionItem[] {
    const items: SectionItem[] = [];
    for (const node of this.tree.children) {
      const start = (node.position?.start.line ?? 0) - 1;
      if (start < section.bodyStart || start >= section.bodyEnd) continue;
      if (node.type === 'list') {
        for (const item of (node as List).children) items.push(this.itemOf(item, (node as List).ordered ?? false));
      } else if (node.type === 'paragraph') {
        items.push({ text: this.nodeText(node), line: start, ordered: false });
      }
    }
    return items;
  }

  /** The bytes of a section's body, verbatim. */
  bodyBytes(section: Section): Buffer {
    return Buffer.concat(this.lines.slice(section.bodyStart, section.bodyEnd));
  }

  /** The line terminator this file mostly uses, so inserted lines match the rest. */
  get eol(): string {
    let crlf = 0;
    let lf = 0;
    for (const line of this.lines) {
      const n = line.length;
      if (n >= 2 && line[n - 2] === 0x0d && line[n - 1] === 0x0a) crlf++;
      else if (n >= 1 && line[n - 1] === 0x0a) lf++;
    }
    return crlf > lf ? '\r\n' : '\n';
  }

  /**
   * A new document in which the body of `section` is replaced by `body` (lines joined with the file's
   * EOL; a blank line is kept before the next heading). Everything outside that body is byte-identical.
   */
  replaceBody(section: Section, body: readonly string[]): MarkdownDoc {
    const eol = this.eol;
    const hasNext = section.bodyEnd < this.lines.length;
    const text = body.map((l) => l + eol).join('') + (hasNext && body.length > 0 ? eol : '');
    // A heading that is the last line without a terminator needs one before its new body.
    const heading = this.lines[section.bodyStart - 1];
    const fix = heading !== undefined && !endsWithEol(heading) && body.length > 0 ? [Buffer.from(eol)] : [];
    return new MarkdownDoc(
      Buffer.concat([
        ...this.lines.slice(0, section.bodyStart),
        ...fix,
        Buffer.from(text, 'utf8'),
        ...this.lines.slice(section.bodyEnd),
      ]),
    );
  }

  /** A new document with a `## heading` section appended at the end (after a blank line). */
  appendSection(heading: string, body: readonly string[]): MarkdownDoc {
    const eol = this.eol;
    const last = this.lines[this.lines.length - 1];
    const lead = last === undefined ? '' : endsWithEol(last) ? (last.toString().trim() === '' ? '' : eol) : eol + eol;
    const text = `${lead}## ${heading}${eol}${body.map((l) => l + eol).join('')}`;
    return new MarkdownDoc(Buffer.concat([this.bytes, Buffer.from(text, 'utf8')]));
  }

  private itemOf(item: ListItem, ordered: boolean): SectionItem {
    const line = (item.position?.start.line ?? 1) - 1;
    const first = item.children.find((c) => c.type === 'paragraph');
    return { text: first ? this.nodeText(first) : '', line, ordered };
  }

  /** Source text of a node (not the parsed text), so inline code and links stay as written. */
  private nodeText(node: RootContent): string {
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? start;
    return this.text
      .slice(start, end)
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .join(' ')
      .trim();
  }
}

/** Normalises heading text for matching: `**Next steps:**` → `next steps`. */
export function headingKey(text: string): string {
  return text
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[:.]$/, '')
    .trim()
    .toLowerCase();
}

function endsWithEol(line: Buffer): boolean {
  const last = line[line.length - 1];
  return last === 0x0a || last === 0x0d;
}

/** Splits bytes into lines on `\r\n`, `\n` or a lone `\r`, the same line endings markdown counts. */
export function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a) {
      lines.push(bytes.subarray(start, i + 1));
      start = i + 1;
    } else if (b === 0x0d) {
      const end = bytes[i + 1] === 0x0a ? i + 2 : i + 1;
      lines.push(bytes.subarray(start, end));
      start = end;
      i = end - 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

function findSections(tree: Root, lineCount: number): Section[] {
  const headings = tree.children.filter((n): n is Heading => n.type === 'heading');
  const sections: Section[] = [];
  headings.forEach((h, i) => {
    const headingLine = (h.position?.start.line ?? 1) - 1;
    const bodyStart = h.position?.end.line ?? headingLine + 1;
    const next = headings[i + 1];
    const bodyEnd = next ? (next.position?.start.line ?? lineCount + 1) - 1 : lineCount;
    const heading = plainText(h).trim();
    sections.push({ heading, key: headingKey(heading), depth: h.depth, headingLine, bodyStart, bodyEnd });
  });
  return sections;
}

function plainText(node: { value?: string; children?: unknown[] }): string {
  if (typeof node.value === 'string') return node.value;
  return (node.children ?? []).map((c) => plainText(c as { value?: string; children?: unknown[] })).join('');
}
