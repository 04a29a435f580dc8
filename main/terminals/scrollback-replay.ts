// The scrollback part of a snapshot, rebuilt on demand (DESIGN.md §6): recent raw output
// (output-ring.ts) is replayed into a throwaway headless terminal of the live screen's size, and
// the lines that scrolled off its screen are serialized. The live mirror keeps only the screen, so
// a session nobody is viewing holds no parsed scrollback. Runs in the supervisor's process.
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;

/**
 * Output that, written to a blank terminal of `cols` x `rows`, fills its scrollback with the lines
 * that `recent` scrolled off a screen of that size (at most `scrollback` of them, oldest first),
 * and leaves the screen blank with the cursor home and default attributes: the live screen's own
 * serialization follows it. Empty when nothing scrolled off.
 *
 * For output that scrolls (agents, builds, logs) the lines are exactly the ones the live screen
 * scrolled off: once more than a screenful was printed, both screens hold its last `rows` lines,
 * whatever the screen held before `recent` began. Output that redraws in place is rebuilt as it
 * would have scrolled on a blank screen of this size.
 */
export async function replayedScrollback(recent: string, cols: number, rows: number, scrollback: number): Promise<string> {
  if (recent.length === 0 || scrollback <= 0) return '';
  // Parsing is the cost (~30 ms per 100 KB on a busy machine): replay only the last lines that can
  // still show, from a line start. A line takes a row or more, so these fill scrollback + screen.
  recent = lastLines(recent, scrollback + rows);
  const term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  try {
    const serializer = new SerializeAddon();
    term.loadAddon(serializer);
    await new Promise<void>((resolve) => term.write(recent, resolve));
    // The normal buffer's: a full-screen program's alternate screen has no scrollback of its own.
    const lines = term.buffer.normal.length - rows;
    if (lines <= 0) return '';
    const above = serializer.serialize({ range: { start: 0, end: lines - 1 }, excludeAltBuffer: true, excludeModes: true });
    // Reset attributes; `rows` line feeds push every line written into the scrollback (the cursor
    // is on the last of them, at most rows - 1 from the bottom); home for the screen that follows.
    return `${above}\x1b[0m${'\r\n'.repeat(rows)}\x1b[H`;
  } finally {
    term.dispose();
  }
}

/** The text from the start of its last `count` lines (all of it when it has no more). */
export function lastLines(text: string, count: number): string {
  // A final line feed ends the last line; otherwise the cursor's unfinished line is the last one.
  let at = text.endsWith('\n') ? text.length - 1 : text.length;
  for (let n = 0; n < count; n++) {
    at = text.lastIndexOf('\n', at - 1);
    if (at < 0) return text;
  }
  return text.slice(at + 1);
}
