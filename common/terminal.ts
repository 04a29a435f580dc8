// Terminal types shared by the supervisor (main) and the UI (renderer): size, exit, backend
// availability and the frames a view receives (the one definition of a frame, with its zod schema:
// the control API's stream, Electron's frame channel and the managed terminal all use it). Pure
// TypeScript, no Node, runs in every process.
import * as z from 'zod/mini';
import './zod-english.js';

export type TerminalBackendKind = 'tmux' | 'direct';

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** How a terminal's program ended: an exit code, or the name of the signal that killed it. */
export interface TerminalExit {
  code: number | null;
  signal: string | null;
}

/** Whether a backend can run here; `reason` says why not (shown to the person, logged). */
export interface BackendAvailability {
  kind: TerminalBackendKind;
  available: boolean;
  version: string | null;
  reason: string | null;
}

/**
 * What a view receives, in order: one `snapshot` (the serialized screen to start from, with the
 * mirror's scrollback), then `output` frames of live output. The view acknowledges every `output`
 * character it has rendered; snapshots are never counted, so a replay cannot lose an ack.
 */
export const TerminalFrame = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('snapshot'), data: z.string(), size: z.object({ cols: z.number(), rows: z.number() }) }),
  z.object({ kind: z.literal('output'), data: z.string() }),
]);
export type TerminalFrame = z.infer<typeof TerminalFrame>;

/** Smallest and largest sizes accepted from a view; outside them a pty misbehaves or wastes memory. */
export const TERMINAL_MIN_COLS = 2;
export const TERMINAL_MIN_ROWS = 1;
export const TERMINAL_MAX_COLS = 1000;
export const TERMINAL_MAX_ROWS = 500;

/** Clamps a requested size into the accepted range (whole numbers). */
export function clampSize(size: TerminalSize): TerminalSize {
  const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, Math.floor(Number.isFinite(n) ? n : lo)));
  return {
    cols: clamp(size.cols, TERMINAL_MIN_COLS, TERMINAL_MAX_COLS),
    rows: clamp(size.rows, TERMINAL_MIN_ROWS, TERMINAL_MAX_ROWS),
  };
}

/** True when the program ended on its own with status 0 (DESIGN.md §4: `finished`). */
export const exitedCleanly = (exit: TerminalExit): boolean => exit.code === 0 && exit.signal === null;
