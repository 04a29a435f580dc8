// Whether a line on an agent's screen lies inside a tool's output (a file the agent printed, a
// command's output): there, a limit sentence is text the agent read, never its CLI's own message.
// Each CLI frames tool output its own way (read from the installed releases):
// - Claude Code 2.1.332: a tool call `● Bash(cat README.md)` at column 0, its result under it,
//   `  ⎿  ` on the first row and column 5 on the rest. Its own messages are a new block: a row at
//   column 0, or `  ⎿  ` after a blank row (each message's top margin) or under the person's prompt.
// - Codex 0.171.0: `• Ran cat README.md`, output rows `  └ …` then `    …`; its own messages start at
//   column 0 (`■ You've hit your usage limit.`).
// - Gemini CLI 0.61.0: a tool box `╭─╮` whose first row is `│ <status> <Tool> …` (status ✓ o ⊷ ⊶ ? - x,
//   TOOL_STATUS), output rows `│ … │`, closed by `╰─╯`; its limit dialog is a box without a status.
// - opencode 1.18.33: a block tool, rows with a left border `┃` (title `# …`, then `$ <command>`,
//   then the output); a user's message is a `┃` block too, but never starts with either.
// Pure; every walk is bounded, so a hostile screen costs no more than MAX_WALK rows per line.
import type { ProfileName } from '../../../common/session.js';

/** Rows walked up from a line to find its frame: past it the frame is unknown and the line is taken as tool output. */
const MAX_WALK = 400;

const CLAUDE_TOOL_CALL = /^[●⏺] ?[^\s(][^(]{0,120}\(/u;
const GEMINI_TOOL_HEAD = /^\s*│\s*[✓o⊷⊶?x-]\s+\S/u;
const OPENCODE_TOOL_HEAD = /^\s*┃\s*(?:#|\$) /u;

/** Whether the row [start, end) of `screen` is inside a tool's output as `profile` frames it. */
export function inToolOutput(profile: ProfileName, screen: string, start: number): boolean {
  const line = rowAt(screen, start);
  switch (profile) {
    case 'claude':
      return claudeInTool(screen, start, line);
    case 'codex':
      // Codex prints its own messages from column 0; everything indented belongs to a cell (an exec's output).
      return /^\s/.test(line);
    case 'gemini':
      return framedInTool(screen, start, /^\s*│/u, /^\s*╭/u, GEMINI_TOOL_HEAD);
    case 'opencode':
      return framedInTool(screen, start, /^\s*┃/u, null, OPENCODE_TOOL_HEAD);
    default:
      return false;
  }
}

function claudeInTool(screen: string, start: number, line: string): boolean {
  if (!/^\s/.test(line)) return false;
  const above = previousRow(screen, start);
  // A new message (`  ⎿  ` after a blank row, its top margin) is the CLI's own wherever it stands:
  // a tool's output goes on at column 5 after a blank row, never at column 2.
  if (/^ {2}⎿ {2}\S/u.test(line) && above !== null && rowAt(screen, above).trim() === '') return false;
  let row = above;
  for (let n = 0; n < MAX_WALK && row !== null; n++, row = previousRow(screen, row)) {
    const text = rowAt(screen, row);
    if (text.trim() === '' || /^\s/.test(text)) continue;
    return CLAUDE_TOOL_CALL.test(text);
  }
  // No head on screen (scrolled off): not known to be the CLI's.
  return true;
}

/** A line inside rows framed by `border`: a tool's when a tool head is among the frame's rows above it. */
function framedInTool(screen: string, start: number, border: RegExp, top: RegExp | null, head: RegExp): boolean {
  if (!border.test(rowAt(screen, start))) return false;
  if (head.test(rowAt(screen, start))) return true;
  let above: number | null = start;
  for (let n = 0; n < MAX_WALK; n++) {
    above = previousRow(screen, above);
    if (above === null) return false;
    const row = rowAt(screen, above);
    if (head.test(row)) return true;
    if (!border.test(row) || (top !== null && top.test(row))) return false;
  }
  return true;
}

/** Rows longer than this are read only this far: every frame is decided within it. */
const MAX_ROW = 1024;

function rowAt(screen: string, start: number): string {
  const nl = screen.indexOf('\n', start);
  const end = nl < 0 ? screen.length : nl;
  return screen.slice(start, Math.min(end, start + MAX_ROW));
}

/** The start of the row above the one starting at `start`, or null at the top. */
function previousRow(screen: string, start: number): number | null {
  if (start === 0) return null;
  return screen.lastIndexOf('\n', start - 2) + 1;
}
