// How Mori types into an agent CLI so the CLI takes the text (DESIGN.md §4, §5): the shape of a
// profile's TypingRules (bracketed paste or keys, the first character alone, chunks, the pause before
// Enter, multi-line handling, what the screen shows while the agent retries by itself; each CLI's
// rules are in its folder) and the pure function that turns a text into the writes to make. Also
// the one rule for a prompt passed as an argument (a leading '-' must not read as a flag), used by
// every profile and command template.
// Pure; runs in the supervisor's process. supervisor/typing/typed-input.ts carries the writes out.

/** How one CLI takes typed text; each CLI's rules, with why each exists, are in main/agents/<name>/profile.ts. */
export interface TypingRules {
  /** `bracketed-paste`: the text is wrapped in ESC[200~ … ESC[201~; `keys`: written as typed characters. */
  mode: 'bracketed-paste' | 'keys';
  /** In `keys` mode, a text with newlines: pasted (`bracketed-paste`), typed as is (`raw`: each may submit), or `join`ed with spaces. */
  multiLine: 'bracketed-paste' | 'raw' | 'join';
  /** In `keys` mode, write the first character alone and wait this long before the rest (0: no). */
  firstCharAloneMs: number;
  /** In `keys` mode, at most this many characters per write (0: the whole text at once)… */
  chunkChars: number;
  /** …and this long between the writes. */
  chunkPauseMs: number;
  /** Quiet time between the text (seen on screen) and Enter. */
  enterDelayMs: number;
  /** What submits: a carriage return for every CLI here. */
  enter: string;
  /** Whether the program shows what is typed, so delivery waits to see it before Enter. */
  echoes: boolean;
  /** How a submission is confirmed: `busy` waits for the agent to start working; `none` trusts the Enter (shells). */
  confirm: 'busy' | 'none';
  /** Screen text shown while the agent retries a request by itself: nothing is typed then. */
  retrying: readonly RegExp[];
  /** What the CLI shows in place of a long paste, counted as the text being shown. */
  pastePlaceholder: RegExp | null;
}

/** One write to the terminal, and how long to wait after it. */
export interface TypedWrite {
  data: string;
  pauseAfterMs: number;
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** Bracketed-paste markers inside the text would end the paste early and let the rest be read as keys. */
const stripPasteMarkers = (text: string): string => text.split(PASTE_START).join('').split(PASTE_END).join('');

/** Line ends as one '\n' (a lone CR typed as a key submits). */
const unixLines = (text: string): string => text.replace(/\r\n?/g, '\n');

/** The writes that put `text` into the CLI's input, without the Enter (see supervisor/typing/typed-input.ts). */
export function typedWrites(text: string, rules: TypingRules): TypedWrite[] {
  const clean = unixLines(stripPasteMarkers(text));
  const multiLine = clean.includes('\n');
  if (rules.mode === 'bracketed-paste' || (multiLine && rules.multiLine === 'bracketed-paste')) {
    return [{ data: `${PASTE_START}${clean}${PASTE_END}`, pauseAfterMs: 0 }];
  }
  let rest = multiLine && rules.multiLine === 'join' ? clean.replace(/\s*\n\s*/g, ' ') : multiLine ? clean.replace(/\n/g, '\r') : clean;
  const writes: TypedWrite[] = [];
  if (rules.firstCharAloneMs > 0 && rest.length > 1) {
    const first = String.fromCodePoint(rest.codePointAt(0) as number);
    writes.push({ data: first, pauseAfterMs: rules.firstCharAloneMs });
    rest = rest.slice(first.length);
  }
  const size = rules.chunkChars > 0 ? rules.chunkChars : rest.length;
  for (let i = 0; i < rest.length; i += size) writes.push({ data: rest.slice(i, i + size), pauseAfterMs: rules.chunkPauseMs });
  const last = writes.at(-1);
  if (last) last.pauseAfterMs = 0;
  return writes;
}

/** Whitespace and box-drawing characters removed, so a text wrapped in an input box still matches. */
export function screenKey(text: string): string {
  return text.replace(/[\s\u2500-\u257f]+/g, '');
}

/** How much of the text's end identifies it on screen: a long input box scrolls, its end stays visible. */
const SHOWN_TAIL_CHARS = 60;

/** How many times the screen shows the text (its end, whitespace-insensitive) or a paste placeholder. */
export function shownCount(screen: string, text: string, rules: Pick<TypingRules, 'pastePlaceholder'>): number {
  const key = screenKey(unixLines(stripPasteMarkers(text)));
  const tail = key.slice(-SHOWN_TAIL_CHARS);
  const flat = screenKey(screen);
  let count = 0;
  if (tail !== '') for (let i = flat.indexOf(tail); i >= 0; i = flat.indexOf(tail, i + 1)) count++;
  if (rules.pastePlaceholder) count += (screen.match(new RegExp(rules.pastePlaceholder.source, 'g')) ?? []).length;
  return count;
}

export const isRetrying = (screen: string, rules: Pick<TypingRules, 'retrying'>): boolean => rules.retrying.some((re) => re.test(screen));

/**
 * A prompt passed as an argument must not start with '-', or the agent's option parser takes it for
 * a flag; a leading space is harmless to every agent. The one rule for profiles and templates alike.
 */
export function promptArgument(prompt: string): string {
  return prompt.startsWith('-') ? ` ${prompt}` : prompt;
}

/** After the text shows, a short quiet time so a paste has been taken before the lone CR (most CLIs' enterDelayMs). */
export const PASTE_SETTLE_MS = 150;
