// Text an agent could have written, made safe to show a person: every control character (C0, DEL,
// C1, ESC) and every invisible or bidi format character is written out as a visible escape, so a
// terminal, a notification or a page shows the bytes as they are and cannot be made to move the
// cursor, erase a line, reorder text or hide part of it. Pure; used by the CLI, the daemon, the
// Electron main process and the renderer.
//
// The escapes: ESC `\e`, newline `\n`, carriage return `\r`, tab `\t`, any other code point up to
// U+00FF `\xHH`, others `\uHHHH` (`\u{HHHHH}` past U+FFFF), hex in lower case. A literal backslash is
// written as `\\` when what follows it could read as an escape (a backslash, one of `e n r t x u`,
// or a character that is itself escaped), and as itself otherwise. So `grep '\d'` reads as it is,
// and the shown text still names the exact characters: read left to right, `\\` is one backslash,
// `\e`, `\n`, `\r`, `\t`, `\xHH`, `\uHHHH`, `\u{H…}` are the characters they name, and any other
// backslash is itself. `unshowText` is that reading, and the unit test holds the two as inverses.

/**
 * Characters shown as escapes: C0 controls, DEL and C1; the soft hyphen; the Arabic letter mark; the
 * Mongolian vowel separator; zero-width spaces, joiners and marks (U+200B–U+200F); line and paragraph
 * separators and the bidi embeddings and overrides (U+2028–U+202E); the word joiner and invisible
 * operators (U+2060–U+2064); the bidi isolates and deprecated format characters (U+2066–U+206F);
 * the byte order mark; interlinear annotation marks (U+FFF9–U+FFFB); the tag characters (U+E0000–
 * U+E007F, invisible ASCII); and any lone surrogate.
 */
const SHOWN = /[\x00-\x1f\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/u;
/** The same, but a newline passes: for a whole output made of lines. */
const SHOWN_BUT_NEWLINE = new RegExp(SHOWN.source.replace('\\x00-\\x1f', '\\x00-\\x09\\x0b-\\x1f'), 'gu');

/** Emoji are joined by U+200D (👩‍💻): a joiner between two pictographs is part of the picture, not hidden. */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const ZWJ = '\u200d';

function emojiJoiner(before: string | undefined, ch: string, after: string | undefined): boolean {
  return ch === ZWJ && before !== undefined && after !== undefined && PICTOGRAPH.test(before) && PICTOGRAPH.test(after);
}

function charAt(text: string, at: number): string | undefined {
  const cp = text.codePointAt(at);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

/** The whole code point that ends just before `at` (both halves of a surrogate pair). */
function charBefore(text: string, at: number): string | undefined {
  const low = text.charCodeAt(at - 1);
  const pair = low >= 0xdc00 && low <= 0xdfff && at >= 2;
  return charAt(text, at - (pair ? 2 : 1));
}

/** Letters that follow a backslash in an escape: a literal backslash before one of them is doubled. */
const ESCAPE_LETTERS = new Set(['\\', 'e', 'n', 'r', 't', 'x', 'u']);

const NAMED: Record<string, string> = { '\x1b': '\\e', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** One character's escape. */
function escapeOf(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp <= 0xff) return `\\x${hex(cp, 2)}`;
  if (cp <= 0xffff) return `\\u${hex(cp, 4)}`;
  return `\\u{${cp.toString(16)}}`;
}

/** Whether the text holds any character `visibleText` writes as an escape. */
export function hasHiddenText(s: string): boolean {
  return s.includes('\n') || visibleLines(s) !== s;
}

/**
 * The text with every control and format character written as a visible escape, newlines too (one
 * line in, one line out), and a backslash doubled where it could otherwise read as an escape (see the
 * header): what a person approves or reads names exactly the characters that are there.
 */
export function visibleText(s: string): string {
  if (!s.includes('\\') && !SHOWN.test(s)) return s;
  let out = '';
  const chars = Array.from(s);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === '\\') {
      const next = chars[i + 1];
      out += next !== undefined && (ESCAPE_LETTERS.has(next) || SHOWN.test(next)) ? '\\\\' : '\\';
    } else out += SHOWN.test(ch) && !emojiJoiner(chars[i - 1], ch, chars[i + 1]) ? escapeOf(ch) : ch;
  }
  return out;
}

/**
 * A last guard on a whole output (a command's text, a notification's body): control and format
 * characters are shown as escapes, newlines kept, backslashes left alone, so parts already made
 * visible by `visibleText` pass unchanged and any part that was not still cannot drive the terminal.
 */
export function visibleLines(text: string): string {
  return text.replace(SHOWN_BUT_NEWLINE, (ch: string, at: number) => (emojiJoiner(charBefore(text, at), ch, charAt(text, at + 1)) ? ch : escapeOf(ch)));
}

/** Reads text made by `visibleText` back to the characters it names (for tests and tools). */
export function unshowText(shown: string): string {
  return shown.replace(/\\(\\|e|n|r|t|x([0-9a-f]{2})|u\{([0-9a-f]{1,6})\}|u([0-9a-f]{4}))/g, (_m, what: string, x?: string, braced?: string, u?: string) => {
    if (what === '\\') return '\\';
    if (what === 'e') return '\x1b';
    if (what === 'n') return '\n';
    if (what === 'r') return '\r';
    if (what === 't') return '\t';
    return String.fromCodePoint(parseInt((x ?? braced ?? u) as string, 16));
  });
}

/** A piece of shown text: plain characters, or one escape standing for a hidden character. */
export interface ShownPart {
  text: string;
  escape: boolean;
}

/** `visibleText(s)` cut into plain runs and escapes, for a page that marks the escapes (`\\` stays plain: it is one backslash). */
export function visibleParts(s: string): ShownPart[] {
  const shown = visibleText(s);
  const parts: ShownPart[] = [];
  let plain = '';
  let at = 0;
  for (const m of shown.matchAll(/\\(?:\\|e|n|r|t|x[0-9a-f]{2}|u\{[0-9a-f]{1,6}\}|u[0-9a-f]{4})/g)) {
    plain += shown.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[0] === '\\\\') {
      plain += m[0];
      continue;
    }
    if (plain) parts.push({ text: plain, escape: false });
    plain = '';
    parts.push({ text: m[0], escape: true });
  }
  plain += shown.slice(at);
  if (plain) parts.push({ text: plain, escape: false });
  return parts;
}
