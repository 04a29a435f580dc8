// Helpers for reading an agent's usage limit from its own transcript (text already read by the
// caller), shared by the readers in each agent's folder (claude/limits.ts reads Claude Code's session
// JSONL, codex/limits.ts Codex's rollout JSONL): lines newest first with over-long ones skipped,
// hostile JSON parsed without throwing, an entry's time, a message's first line. Pure.

/** Longest JSONL line parsed: a limit entry is under 4 KB; longer lines are tool output, never a limit. */
const MAX_ENTRY = 256 * 1024;
/** Longest text a signal carries (the contract's one line). */
export const MAX_TEXT = 200;

/** The entry's time in ms, else the fallback (a reset printed as a clock time is the next one after it). */
export function entryTime(stamp: string | undefined, fallbackMs: number): number {
  const t = stamp === undefined ? Number.NaN : Date.parse(stamp);
  return Number.isFinite(t) && t <= fallbackMs ? t : fallbackMs;
}

/** Lines of a JSONL text, newest first, without the over-long ones. */
export function* newestLines(text: string): Generator<string> {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (end - start <= MAX_ENTRY) yield text.slice(start, end);
    end = start - 1;
  }
}

export function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return (nl < 0 ? text : text.slice(0, nl)).trim().slice(0, MAX_TEXT);
}
