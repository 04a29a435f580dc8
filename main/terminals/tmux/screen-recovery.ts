// A tmux pane's screen, read back with `capture-pane`: on attach (history, screen and cursor, as
// output that redraws them on a blank terminal, so a re-attaching process shows what the program
// drew while nobody watched), and after the program exited (tmux 3.3a does not send a pane's last
// read to control clients when the program exits with it: the lines after the last output we saw
// are recovered from the final screen). Runs in the supervisor's process.
import type { TmuxControlClient } from './tmux-control-client.js';

/** Lines of seen output that must match the captured history in missingTail(). */
const MATCH_LINES = 3;

const stripEscapes = (s: string): string =>
  s.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g, '');

/** Turns `capture-pane -e -p` lines plus the cursor into output that redraws them on a blank screen. */
export function captureToScreen(lines: string[], cursor: { x: number; y: number } | null): string {
  if (lines.length === 0) return '';
  // Each captured line starts from default attributes; say so, since we join them into one stream.
  let out = lines.map((l) => `\x1b[0m${l}`).join('\r\n') + '\x1b[0m';
  if (cursor) out += `\x1b[${cursor.y + 1};${cursor.x + 1}H`;
  return out;
}

/**
 * The lines of the final screen that came after the output we saw, as output (styled). Finds the
 * last line we saw on the screen, bottom up; nothing when it is not there (the screen was redrawn).
 */
export function missingTail(seen: string, plainScreen: string[], styledScreen: string[], rows: number): string {
  const screen = trimBlankTail(plainScreen);
  const seenLines = stripEscapes(seen).split('\n').map((l) => l.trimEnd());
  const endsWithNewline = seenLines.at(-1) === '';
  if (endsWithNewline) seenLines.pop();
  // Match the last few lines we saw, not one: a repeated line alone would match too early.
  const want = seenLines.slice(-MATCH_LINES);
  // Nothing seen yet: everything on the screen is new.
  if (want.every((l) => l === '')) return screen.length === 0 ? '' : styledScreen.slice(0, screen.length).join('\r\n') + '\r\n';
  const lastWanted = want.length - 1;
  for (let end = screen.length - 1; end >= lastWanted; end--) {
    const matches = want.every((w, k) => {
      const line = (screen[end - lastWanted + k] ?? '').trimEnd();
      return k === lastWanted && !endsWithNewline ? line.startsWith(w) : line === w;
    });
    if (!matches) continue;
    const rest = styledScreen.slice(end + 1, screen.length);
    if (rest.length === 0) return '';
    const styledRest = rest.join('\r\n') + '\r\n';
    return endsWithNewline ? styledRest : `\r\n${styledRest}`;
  }
  // What we saw scrolled out of the history: all of it is newer than our last output. (A screen
  // that was redrawn in place has no history beyond the screen, and gets nothing.)
  if (screen.length > rows) return '\r\n' + styledScreen.slice(0, screen.length).join('\r\n') + '\r\n';
  return '';
}

function trimBlankTail(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && (out.at(-1) ?? '').trim() === '') out.pop();
  return out;
}

export interface CapturedScreen {
  /** Output that redraws history, screen and cursor on a blank terminal. */
  screen: string;
  /** The captured text as plain lines, for missingTail() later: it counts as seen. */
  seen: string;
}

/**
 * The cursor, then the whole history and screen of `pane`. Output that arrived before the capture
 * is in it; output after it streams on, so nothing is lost or doubled: `synced` runs the moment the
 * capture's reply is parsed, before any output that follows it.
 */
export async function captureScreen(client: TmuxControlClient, pane: string, synced: () => void): Promise<CapturedScreen> {
  const cursorReply = client.command(`display -p -t ${pane} '#{cursor_x} #{cursor_y}'`);
  const capture = await client.command(`capture-pane -p -e -S - -E - -t ${pane}`, synced);
  const [cx, cy] = ((await cursorReply).lines[0] ?? '').split(' ').map(Number);
  const cursor = Number.isFinite(cx) && Number.isFinite(cy) ? { x: cx as number, y: cy as number } : null;
  if (!capture.ok) return { screen: '', seen: '' };
  // A blank screen adds no line: a made-up empty line would have to match one on the final screen.
  const captured = trimBlankTail(capture.lines);
  return { screen: captureToScreen(capture.lines, cursor), seen: captured.length > 0 ? captured.join('\n') + '\n' : '' };
}

/** What the final screen of a dead `pane` shows after `seen` (see missingTail); '' when nothing. */
export async function recoverMissingTail(client: TmuxControlClient, pane: string, seen: string, rows: number): Promise<string> {
  const plain = await client.command(`capture-pane -p -S - -t ${pane}`);
  const styled = await client.command(`capture-pane -p -e -S - -t ${pane}`);
  return plain.ok && styled.ok ? missingTail(seen, plain.lines, styled.lines, rows) : '';
}
