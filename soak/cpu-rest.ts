// When the soak's end reading of the daemon's CPU is taken (quiet.ts restingWindow): a daemon started
// late in the run (a kill or a down-up among the last faults) is still resuming its sessions, and one
// that met a sleep or a kill just before the run settled is still catching up (checkpoints, verifies,
// V8 compiling its hot paths anew). Its end window starts no younger than the warm-up daemon was at its
// own window, and a window above the bound is taken again while the readings still fall: a daemon
// that settles comes down, one that spins stays where it is. Pure; runs in the soak's process.

/** At most this many end windows (QUIET_MS each): 40 s more at worst, and a spin is seen in two. */
export const MAX_END_WINDOWS = 4;
/** A window at most this share of the one before is still falling: the daemon is settling, not at rest. */
export const FALLING = 0.8;

/** How long to wait before the end window, so the daemon is at least as old as the warm-up's was at its window (ms). */
export function waitForAge(daemonAgeMs: number | null, warmAgeMs: number | null): number {
  if (daemonAgeMs === null || warmAgeMs === null) return 0;
  return Math.max(0, warmAgeMs - daemonAgeMs);
}

/**
 * Whether to take another end window after the readings `shares` (each a share of a core, oldest
 * first): the last is above `bound`, it fell from the one before (or it is the first), and windows remain.
 */
export function anotherWindow(shares: readonly number[], bound: number, max = MAX_END_WINDOWS): boolean {
  const last = shares.at(-1);
  if (last === undefined) return true;
  if (last <= bound || shares.length >= max) return false;
  const before = shares.at(-2);
  return before === undefined || last <= before * FALLING;
}
