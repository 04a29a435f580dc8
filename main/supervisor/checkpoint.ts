// Checkpoints (DESIGN.md §3, §4): the project's git HEAD and changed files, written into
// session.json every few minutes and when the agent exits or is interrupted, with a work-log entry
// only when something changed since the last one. The comparison is pure; writing is the thin shell.
// Runs in the supervisor's process.
import type { Checkpoint, SessionFile } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { gitChangedFiles, gitHead } from '../state/git-info.js';
import { updateSessionFile } from '../state/session-file.js';
import { appendEntry } from '../state/work-log.js';

/** DESIGN.md §4: often enough that a crash loses little, rare enough to cost nothing. */
export const CHECKPOINT_INTERVAL_MS = 5 * 60_000;
/** Files named in the work-log entry; the full list is in session.json. */
const LOGGED_FILES = 8;

/** Whether HEAD or the set of changed files differs from the previous checkpoint. */
export function checkpointChanged(previous: Checkpoint | null, gitHeadNow: string | null, changedFiles: readonly string[]): boolean {
  if (previous === null) return gitHeadNow !== null || changedFiles.length > 0;
  if (previous.gitHead !== gitHeadNow) return true;
  const before = new Set(previous.changedFiles);
  return before.size !== new Set(changedFiles).size || changedFiles.some((f) => !before.has(f));
}

/** The work-log line for a changed checkpoint. */
export function checkpointLogLine(previous: Checkpoint | null, cp: Checkpoint): string {
  const head = cp.gitHead ? cp.gitHead.slice(0, 12) : 'no git HEAD';
  const moved = previous !== null && previous.gitHead !== cp.gitHead ? ' (new commit)' : '';
  const files = cp.changedFiles.length === 0
    ? 'no uncommitted changes'
    : `${cp.changedFiles.length} changed file${cp.changedFiles.length === 1 ? '' : 's'}: ${cp.changedFiles.slice(0, LOGGED_FILES).join(', ')}${cp.changedFiles.length > LOGGED_FILES ? ', …' : ''}`;
  return `CHECKPOINT - ${head}${moved}; ${files}`;
}

export interface CheckpointResult {
  checkpoint: Checkpoint;
  changed: boolean;
  session: SessionFile;
}

/** Reads git, stores the checkpoint in session.json, and logs it when it changed. */
export function writeCheckpoint(stateDir: string, projectDir: string, now = new Date()): Result<CheckpointResult> {
  const head = gitHead(projectDir);
  const files = gitChangedFiles(projectDir);
  const checkpoint: Checkpoint = { at: now.toISOString(), gitHead: head, changedFiles: files };
  let previous: Checkpoint | null = null;
  const written = updateSessionFile(stateDir, (s) => {
    previous = s.lastCheckpoint;
    return { ...s, lastCheckpoint: checkpoint };
  });
  if (!written.ok) return written;
  const changed = checkpointChanged(previous, head, files);
  if (changed) {
    try {
      appendEntry(stateDir, [checkpointLogLine(previous, checkpoint)], now);
    } catch (err) {
      return fail('failed', `${stateDir}/work_log.md: ${(err as Error).message}`);
    }
  }
  return ok({ checkpoint, changed, session: written.value });
}
