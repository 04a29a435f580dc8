// The tmux control-mode protocol (`man tmux`, CONTROL MODE), as pure functions: splitting the
// stream into lines, `%begin/%end/%error` reply blocks, `%output` with its octal escapes,
// `%exit`, `%pause/%continue`, `%subscription-changed`. No I/O; runs in the supervisor's process.
//
// The stream is read as latin1, so one char is one byte: escapes decode to bytes and pane output
// is turned into text (UTF-8) by the caller, per pane, across chunk boundaries.

export type ControlEvent =
  | { kind: 'output'; pane: string; bytes: string }
  | { kind: 'reply'; number: number; fromUs: boolean; ok: boolean; lines: string[] }
  | { kind: 'exit'; reason: string | null }
  | { kind: 'pause'; pane: string }
  | { kind: 'continue'; pane: string }
  | { kind: 'subscription'; name: string; value: string }
  | { kind: 'notification'; name: string; line: string };

/**
 * Decodes tmux's escaping of pane output: bytes below 0x20 and the backslash itself arrive as a
 * backslash and three octal digits. Input and output are latin1 strings (one char per byte).
 */
export function decodeOctal(escaped: string): string {
  let at = escaped.indexOf('\\');
  if (at < 0) return escaped;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += escaped.slice(from, at);
    const code = parseInt(escaped.slice(at + 1, at + 4), 8);
    if (Number.isNaN(code)) {
      out += '\\';
      from = at + 1;
    } else {
      out += String.fromCharCode(code);
      from = at + 4;
    }
    at = escaped.indexOf('\\', from);
  }
  return out + escaped.slice(from);
}

interface OpenBlock {
  time: string;
  number: number;
  flags: number;
  lines: string[];
}

/**
 * Turns control-mode stream chunks into events. Consecutive `%output` lines of one pane within a
 * chunk are merged into one event (one text decode per chunk rather than per line).
 */
export class ControlParser {
  private rest = '';
  private block: OpenBlock | null = null;
  private outPane: string | null = null;
  private outParts: string[] = [];

  constructor(private readonly emit: (event: ControlEvent) => void) {}

  push(chunk: string): void {
    let data = this.rest.length > 0 ? this.rest + chunk : chunk;
    let from = 0;
    for (let nl = data.indexOf('\n', from); nl >= 0; nl = data.indexOf('\n', from)) {
      const end = nl > from && data.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.line(data.slice(from, end));
      from = nl + 1;
    }
    this.rest = data.slice(from);
    data = '';
    this.flushOutput();
  }

  private flushOutput(): void {
    if (this.outPane === null) return;
    const pane = this.outPane;
    const bytes = this.outParts.length === 1 ? (this.outParts[0] as string) : this.outParts.join('');
    this.outPane = null;
    this.outParts = [];
    this.emit({ kind: 'output', pane, bytes });
  }

  private line(line: string): void {
    if (this.block) {
      const b = this.block;
      if ((line.startsWith('%end ') || line.startsWith('%error ')) && line.split(' ', 3).slice(1).join(' ') === `${b.time} ${b.number}`) {
        this.block = null;
        this.emit({ kind: 'reply', number: b.number, fromUs: (b.flags & 1) === 1, ok: line.startsWith('%end '), lines: b.lines });
      } else {
        b.lines.push(line);
      }
      return;
    }
    if (line.startsWith('%output ')) {
      const space = line.indexOf(' ', 8);
      if (space < 0) return;
      const pane = line.slice(8, space);
      if (this.outPane !== null && this.outPane !== pane) this.flushOutput();
      this.outPane = pane;
      this.outParts.push(decodeOctal(line.slice(space + 1)));
      return;
    }
    this.flushOutput();
    if (line.startsWith('%extended-output ')) {
      // %extended-output %pane age ... : data
      const colon = line.indexOf(' : ');
      const pane = line.slice(17, line.indexOf(' ', 17));
      if (colon >= 0) this.emit({ kind: 'output', pane, bytes: decodeOctal(line.slice(colon + 3)) });
      return;
    }
    const space = line.indexOf(' ');
    const name = space < 0 ? line : line.slice(0, space);
    const arg = space < 0 ? '' : line.slice(space + 1);
    switch (name) {
      case '%begin': {
        const [time = '', number = '0', flags = '0'] = arg.split(' ');
        this.block = { time, number: Number(number), flags: Number(flags), lines: [] };
        return;
      }
      case '%exit':
        this.emit({ kind: 'exit', reason: arg.length > 0 ? arg : null });
        return;
      case '%pause':
        this.emit({ kind: 'pause', pane: arg });
        return;
      case '%continue':
        this.emit({ kind: 'continue', pane: arg });
        return;
      case '%subscription-changed': {
        // %subscription-changed name $session @window index %pane ... : value
        const colon = arg.indexOf(' : ');
        this.emit({ kind: 'subscription', name: arg.split(' ', 1)[0] ?? '', value: colon < 0 ? '' : arg.slice(colon + 3) });
        return;
      }
      default:
        if (name.startsWith('%')) this.emit({ kind: 'notification', name, line });
    }
  }
}

/** Input as `send-keys -H` arguments: every byte in hex, so no key name or quoting can misfire. */
export function hexKeys(data: string): string[] {
  return Array.from(Buffer.from(data, 'utf8'), (b) => b.toString(16).padStart(2, '0'));
}

/** Characters that stand for themselves inside a double-quoted tmux word. */
const PLAIN_IN_QUOTES = /[A-Za-z0-9 _./:=@%+,-]/;

/**
 * One word for a tmux command line sent on a control connection: double-quoted, every other
 * printable ASCII character backslash-escaped (so `$`, `~`, `"`, `\` and `#` mean nothing), every
 * other byte (controls, newlines, UTF-8) as a `\ooo` octal escape: the line stays one line.
 */
export function tmuxWord(word: string): string {
  let out = '"';
  for (const byte of Buffer.from(word, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte >= 0x20 && byte < 0x7f) out += PLAIN_IN_QUOTES.test(ch) ? ch : `\\${ch}`;
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}
