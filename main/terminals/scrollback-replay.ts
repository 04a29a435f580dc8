// The scrollback part of a snapshot, rebuilt on demand (DESIGN.md §6): recent raw output
// (output-ring.ts) is replayed into a headless terminal of the live screen's size, and the lines
// that scrolled off its screen are serialized. The live mirror keeps only the screen, so a session
// nobody is viewing holds no parsed scrollback. One replay terminal serves every session, one
// replay at a time, and is dropped when no view attached for a while.
// Runs in the supervisor's process.
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;

/**
 * How long the replay terminal outlives its last use. Kept, it recycles its lines instead of
 * allocating ~1.5 MB per replay (a third of the CPU of a snapshot, mostly garbage collection),
 * while views attach one after another; dropped, an idle daemon does not hold it.
 */
export const REPLAY_KEEP_MS = 30_000;

/**
 * Back to a clean blank screen after a replay: normal screen, modes, margins, attributes and
 * character sets reset (DECSTR), the screen erased (its lines do not enter the scrollback), home.
 */
const RESET = '\x1b[?1049l\x1b[!p\x1b[0m\x1b[H\x1b[2J';

interface Replayer {
  term: InstanceType<typeof Terminal>;
  serializer: InstanceType<typeof SerializeAddon>;
  cols: number;
  rows: number;
  scrollback: number;
}

let replayer: Replayer | null = null;
let dropTimer: NodeJS.Timeout | null = null;
/** Replays share one terminal: each waits for the one before it. */
let queue: Promise<unknown> = Promise.resolve();

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
export function replayedScrollback(recent: string, cols: number, rows: number, scrollback: number): Promise<string> {
  if (recent.length === 0 || scrollback <= 0) return Promise.resolve('');
  // Parsing is the cost: replay only the last lines that can still show, from a line start. A line
  // takes a row or more, so these fill the scrollback and the screen.
  const text = lastLines(recent, scrollback + rows);
  const run = queue.then(() => replay(text, cols, rows, scrollback));
  queue = run.catch(() => undefined);
  return run;
}

async function replay(text: string, cols: number, rows: number, scrollback: number): Promise<string> {
  // Not dropped while in use: a disposed terminal never calls back from a write.
  if (dropTimer) clearTimeout(dropTimer);
  const r = replayerFor(cols, rows, scrollback);
  try {
    // Every replay ends by going back to a clean blank screen (RESET), so this one starts on the
    // normal screen with the cursor home; the old lines above it are not its own.
    const top = r.term.registerMarker(0);
    await write(r.term, text + RESET);
    // From the old screen's top, or all of it once the old lines were pushed out at the top.
    const from = !top || top.isDisposed || top.line < 0 ? 0 : top.line;
    top?.dispose();
    const to = r.term.buffer.normal.length - rows;
    if (to <= from) return '';
    const above = r.serializer.serialize({ range: { start: from, end: to - 1 }, excludeAltBuffer: true, excludeModes: true });
    // Reset attributes; `rows` line feeds push every line written into the scrollback (the cursor
    // is on the last of them, at most rows - 1 from the bottom); home for the screen that follows.
    return `${above}\x1b[0m${'\r\n'.repeat(rows)}\x1b[H`;
  } catch (e) {
    drop();
    throw e;
  } finally {
    dropTimer = setTimeout(drop, REPLAY_KEEP_MS);
    dropTimer.unref();
  }
}

function replayerFor(cols: number, rows: number, scrollback: number): Replayer {
  if (replayer && replayer.cols === cols && replayer.rows === rows && replayer.scrollback === scrollback) return replayer;
  // Another size: a new terminal (resizing would reflow old lines only to clear them).
  drop();
  const term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  replayer = { term, serializer, cols, rows, scrollback };
  return replayer;
}

function drop(): void {
  replayer?.term.dispose();
  replayer = null;
}

function write(term: InstanceType<typeof Terminal>, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
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
