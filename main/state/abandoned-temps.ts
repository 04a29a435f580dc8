// Temp files a killed Mori process left in a state dir (DESIGN.md §3): an atomic write's
// `<state file>.<12 hex>.tmp` (atomic-write.ts) is renamed over its file within milliseconds, so one
// a minute old was left by a writer killed between its create and its rename. The daemon removes them
// as it brings a session up; a night of daemon kills otherwise leaves one per kill. Only Mori's own
// names are touched, only plain files (an agent's FIFO or link of that name is left as it is), and
// the dir is listed a bounded number of entries at a time. Runs in the supervisor's process.
import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { STATE_FILES, WORK_LOG_ARCHIVE } from '../../common/state-files.js';
import { listAgentDir } from '../os/agent-file.js';
import { SESSION_BACKUP } from './session-file.js';

/** An atomic write takes milliseconds; its temp file this old has no writer left. */
export const ABANDONED_AFTER_MS = 60_000;
/** A state dir holds a handful of files; one flooded by an agent is not listed whole. */
const MAX_ENTRIES = 10_000;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TEMP_NAME = new RegExp(`^(${[...STATE_FILES, WORK_LOG_ARCHIVE, SESSION_BACKUP].map(escape).join('|')})\\.[0-9a-f]{12}\\.tmp$`);

/** Removes the abandoned temp files of `stateDir`; how many were removed. Never throws. */
export async function removeAbandonedTemps(stateDir: string, nowMs: number): Promise<number> {
  let removed = 0;
  for (const { name } of await listAgentDir(stateDir, MAX_ENTRIES).catch(() => [])) {
    if (!TEMP_NAME.test(name)) continue;
    const file = path.join(stateDir, name);
    try {
      const st = await lstat(file);
      if (!st.isFile() || nowMs - st.mtimeMs < ABANDONED_AFTER_MS) continue;
      await unlink(file);
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove: left
    }
  }
  return removed;
}
