// The crash history kept in session.json (`restartHistory`), so a crash loop is recognised across
// supervisor restarts (DESIGN.md §4: five crashes within ten *awake* minutes). Each crash is stored
// with the system's awake clock and boot id; read back, it becomes a time on this supervisor's
// clock. Pure except systemAwakeMs(). Runs in the supervisor's process.
import type { CrashRecord } from '../../../common/session.js';

/** Crashes kept in session.json: more than a crash loop needs, bounded. */
export const RESTART_HISTORY_KEEP = 20;

/**
 * Milliseconds of a clock shared by every process of this boot that stops while the machine sleeps
 * (Linux CLOCK_MONOTONIC, macOS mach_absolute_time): the awake time between two processes' events.
 */
export function systemAwakeMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

export interface HistoryNow {
  wallMs: number;
  /** systemAwakeMs() now. */
  systemAwakeMs: number;
  bootId: string;
  /** The supervisor's own awake clock now (PowerClock.monoMs), which the restart policy counts in. */
  monoMs: number;
}

/** Appends one crash, keeping the newest RESTART_HISTORY_KEEP. */
export function recordCrash(history: readonly (string | CrashRecord)[], now: Omit<HistoryNow, 'monoMs'>): (string | CrashRecord)[] {
  const entry: CrashRecord = { at: new Date(now.wallMs).toISOString(), awakeMs: now.systemAwakeMs, bootId: now.bootId };
  return [...history, entry].slice(-RESTART_HISTORY_KEEP);
}

/**
 * The stored crashes as times on the supervisor's awake clock, oldest first. Within the same boot
 * the awake clocks give the exact awake time since; across a reboot (or for old wall-only entries)
 * the wall-clock age is used, which counts sleep too and so can only make a crash look older.
 */
export function crashTimes(history: readonly (string | CrashRecord)[], now: HistoryNow): number[] {
  const times: number[] = [];
  for (const entry of history) {
    const wall = Date.parse(typeof entry === 'string' ? entry : entry.at);
    const sameBoot = typeof entry !== 'string' && entry.bootId === now.bootId && entry.awakeMs <= now.systemAwakeMs;
    const age = sameBoot ? now.systemAwakeMs - entry.awakeMs : Number.isFinite(wall) ? Math.max(0, now.wallMs - wall) : null;
    if (age !== null) times.push(now.monoMs - age);
  }
  return times.sort((a, b) => a - b);
}
