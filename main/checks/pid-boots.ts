// Which boot each `(pid N)` of environment.md belongs to (DESIGN.md §3: a pid is valid only in the
// boot it was written in). Mori records the current boot for a pid the first time it sees it, and
// for a pid it wrote itself; the records live in session.json (`pidBoots`). Pure.
import type { SessionRecord } from '../../common/session.js';

export type PidBoots = SessionRecord['pidBoots'];

/**
 * The records after seeing `pids` in the current boot: pids already recorded keep their boot, new
 * ones get the current boot, and pids no longer named anywhere are forgotten.
 */
export function notePids(records: PidBoots, pids: readonly string[], currentBoot: string, now: Date): PidBoots {
  const out: PidBoots = {};
  for (const pid of pids) out[pid] = records[pid] ?? { bootId: currentBoot, seenAt: now.toISOString() };
  return out;
}

export function samePidBoots(a: PidBoots, b: PidBoots): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k]?.bootId === b[k]?.bootId);
}
