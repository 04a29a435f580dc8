// Finds an agent's usage limit on its screen (DESIGN.md §4): the CLI's own limit message (the shapes
// its limit sources give, main/agents/<name>/limits.ts), read from the last matching line, with the
// reset time read by reset-time.ts. Pure.
//
// Each shape is anchored to the start of a line after the CLI's own glyphs (Claude's `⎿`/`⏺`,
// Codex's `■`/`🖐`, Gemini's `✕`/`⚡`, box borders), so the person's own prompt echoed back
// (`❯ why did I hit my usage limit?`, Codex's `› …`, Gemini's `> …`) never counts: those lines
// start with a prompt glyph none of the shapes allow. A line inside a tool's output (a file the
// agent printed) never counts either: tool-output.ts knows each CLI's frame.
import type { AgentProfile } from '../profile.js';
import { parseResetTime } from './reset-time.js';
import { inToolOutput } from './tool-output.js';
import type { UsageLimitSignal } from './usage-limit-signal.js';

/** The profile asked: its name for the signal, its limit sources for the shapes and frames (a profile without them never matches). */
export type LimitProfile = Pick<AgentProfile, 'name' | 'limits'>;

/** Glyphs and borders a CLI puts before its own message lines (never a prompt glyph such as ❯ > ›). */
export const LIMIT_LEAD = String.raw`^[\s│┃║|⎿⏺●✻✶✢■□🖐✋⚠✕✗✘×⚡ℹ!*·∙•\-]*(?:Error:\s*|API Error:\s*)?`;

/** Longest text a signal carries: one line for the log and the notification. */
const MAX_TEXT = 200;
/** Characters of a line tested against the shapes: every shape ends well inside it, the rest of a giant line is never read. */
const MAX_LINE_TEST = 512;
/** Following lines read for a reset time a wrapped or two-line message carries (Gemini's "Access resets at …" line, Codex's wrap). */
const FOLLOW_LINES = 2;
/**
 * Lines read from the bottom: a terminal shows under 200 rows and the region after a turn start
 * that callers pass stays well inside this; past it, a hostile stream of lines costs no more.
 */
const MAX_SCREEN_LINES = 2000;
/** A line starting like a prompt: the person's input, never part of the CLI's message. */
const PROMPT_LINE = /^\s*[│┃|]?\s*(?:❯|>|›|▌|\$)/;

/** Whether `line` is one of `profile`'s own limit messages. */
export function isLimitLine(profile: LimitProfile, line: string): boolean {
  const shapes = profile.limits?.shapes;
  return shapes !== undefined && matchesLimitShape(shapes, line);
}

/** Whether `line` matches one of `shapes` (a CLI's limit messages), read no further than its first MAX_LINE_TEST characters. */
export function matchesLimitShape(shapes: readonly RegExp[], line: string): boolean {
  const head = line.length > MAX_LINE_TEST ? line.slice(0, MAX_LINE_TEST) : line;
  return shapes.some((re) => re.test(head));
}

/** The usage limit the screen shows, or null. `screen` is the visible text, newest line last; the last matching line wins. */
export function screenUsageLimit(profile: LimitProfile, screen: string, nowMs: number, localZone: string): UsageLimitSignal | null {
  if (profile.limits === undefined) return null;
  // Walked from the bottom by index rather than split: a giant screen costs one pass, not a copy.
  let end = screen.length;
  for (let n = 0; n < MAX_SCREEN_LINES && end >= 0; n++) {
    const start = end === 0 ? 0 : screen.lastIndexOf('\n', end - 1) + 1;
    const line = headOf(screen, start, end);
    const lineEnd = end;
    end = start - 1;
    if (line === '' || !isLimitLine(profile, line) || inToolOutput(profile, screen, start)) continue;
    // A wrapped message ("… try again in 5 days 22 hours 11" / "minutes.") or a two-line one
    // (Gemini's "Access resets at …") goes on below; the matched line's own words come first, so
    // the lines after it only add to what it says.
    let joined = stripLead(line);
    let nextStart = lineEnd + 1;
    for (let k = 1; k <= FOLLOW_LINES && nextStart <= screen.length; k++) {
      const nl = screen.indexOf('\n', nextStart);
      const nextEnd = nl < 0 ? screen.length : nl;
      const next = headOf(screen, nextStart, nextEnd);
      if (PROMPT_LINE.test(next) || isLimitLine(profile, next) || stripLead(next) === '') break;
      joined = `${joined} ${stripLead(next)}`;
      nextStart = nextEnd + 1;
    }
    const resetAtMs = parseResetTime(joined, nowMs, localZone);
    return { profile: profile.name, source: 'screen', resetAtMs, text: stripLead(line).slice(0, MAX_TEXT) };
  }
  return null;
}

/** The first MAX_LINE_TEXT characters of the line [start, end) of `text`. */
function headOf(text: string, start: number, end: number): string {
  return text.slice(start, Math.min(end, start + MAX_LINE_TEXT));
}

/** Characters of a line kept as message text: a limit message is under 400; a wide terminal's line under 1024. */
const MAX_LINE_TEXT = 1024;
/** Trailing characters that are padding or a box border, not message. */
const TRAILING = new Set([' ', '\t', '\r', '│', '┃', '║', '|']);

/** The line without the CLI's leading glyphs and trailing borders. */
function stripLead(line: string): string {
  const head = (line.length > MAX_LINE_TEXT ? line.slice(0, MAX_LINE_TEXT) : line).replace(/^[\s│┃║|⎿⏺●✻✶✢■□🖐✋⚠✕✗✘×⚡ℹ!*·∙•\-]+/u, '');
  let end = head.length;
  while (end > 0 && TRAILING.has(head[end - 1] ?? '')) end--;
  return head.slice(0, end);
}
