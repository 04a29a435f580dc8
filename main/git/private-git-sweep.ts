// Removes private git dirs (private-git-dir.ts) that their process left behind: a process killed
// while git ran (a supervisor taken down mid-checkpoint, a command interrupted) cannot remove its
// own. Only our own real directories under the temp dir are touched, never a symlink nor another
// user's entry (the temp dir is shared), and only once their process is gone or they are older
// than any git run lasts. Called once as the daemon starts. Any Node process.
import { lstat, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from '../os/pid-alive.js';

/** Private git dirs are named `mori-git-<pid>-XXXXXX` (the pid of the process that made it). */
export const PRIVATE_GIT_PREFIX = 'mori-git-';
const NAMED = /^mori-git-(?:(\d+)-)?[A-Za-z0-9]{6}$/;
/**
 * A private git dir lives as long as one git run (GIT_TIMEOUT_MS, 5 s; a patch's few runs): one an
 * hour old is left behind, whoever made it (one without a pid in its name, or of a pid since reused).
 */
const ABANDONED_AFTER_MS = 60 * 60_000;

/** Removes the abandoned private git dirs under `tmp`; returns the names removed. Never throws. */
export async function sweepPrivateGitDirs(tmp = os.tmpdir(), now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(tmp)).filter((n) => n.startsWith(PRIVATE_GIT_PREFIX));
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of names) {
    const m = NAMED.exec(name);
    if (m === null) continue;
    const dir = path.join(tmp, name);
    try {
      const st = await lstat(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      const pid = m[1] === undefined ? null : Number(m[1]);
      const gone = pid !== null && pid !== process.pid && !pidAlive(pid);
      if (!gone && now - st.mtimeMs < ABANDONED_AFTER_MS) continue;
      // Its entries are plain files and symlinks into a repository: removed, never followed.
      await rm(dir, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
  return removed;
}
