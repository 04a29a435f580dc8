// Whether a line on an agent's screen lies inside a tool's output (a file the agent printed, a
// command's output): there, a limit sentence is text the agent read, never its CLI's own message.
// Each CLI frames tool output its own way, said by its limit sources (main/agents/<name>/limits.ts);
// this file holds the bounded walks over a screen's rows they share and the call that asks the
// profile. Pure; every walk is bounded, so a hostile screen costs no more than MAX_WALK rows per line.
import type { AgentProfile } from '../profile.js';

/** Rows walked up from a line to find its frame: past it the frame is unknown and the line is taken as tool output. */
export const MAX_WALK = 400;

/** Whether the row starting at `start` of `screen` is inside a tool's output as `profile` frames it. */
export function inToolOutput(profile: Pick<AgentProfile, 'limits'>, screen: string, start: number): boolean {
  return profile.limits?.inToolOutput(screen, start) ?? false;
}

/** A line inside rows framed by `border`: a tool's when a tool head is among the frame's rows above it. */
export function framedInTool(screen: string, start: number, border: RegExp, top: RegExp | null, head: RegExp): boolean {
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

export function rowAt(screen: string, start: number): string {
  const nl = screen.indexOf('\n', start);
  const end = nl < 0 ? screen.length : nl;
  return screen.slice(start, Math.min(end, start + MAX_ROW));
}

/** The start of the row above the one starting at `start`, or null at the top. */
export function previousRow(screen: string, start: number): number | null {
  if (start === 0) return null;
  return screen.lastIndexOf('\n', start - 2) + 1;
}
