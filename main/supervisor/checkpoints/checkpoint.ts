// Checkpoints (DESIGN.md §3, §4): the project's git HEAD and changed files, written into
// session.json every few minutes and when the agent exits or is interrupted, with a work-log entry
// only when something changed since the last one. The comparison is pure; writing is the thin shell.
// Git runs as asynchronous child processes, at most CHECKPOINT_CONCURRENCY at once across the process,
// so checkpointing every session on suspend never blocks the event loop (which the drift detector
// would read as a sleep). Runs in the supervisor's process.
import type { Checkpoint, SessionFile } from '../../../common/session.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { GIT_TIMEOUT_MS, gitStateAsync } from '../../state/git-info.js';
import { Limiter } from '../../state/limiter.js';
import { updateSessionFileAsync } from '../../state/session-file.js';
import { appendEntryAsync } from '../../state/work-log.js';

/** DESIGN.md §4: often enough that a crash loses little, rare enough to cost nothing. */
export const CHECKPOINT_INTERVAL_MS = 5 * 60_000;
/**
 * Checkpoints reading git at once, process-wide. Git status is CPU- and disk-bound; on a two-core
 * machine two at a time finished a 20-session suspend sooner, and with shorter event-loop stalls,
 * than four (bench/checkpoint-suspend.bench.ts).
 */
export const CHECKPOINT_CONCURRENCY = 2;
export const checkpointLimiter = new Limiter(CHECKPOINT_CONCURRENCY);
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

/**
 * Reads git (asynchronously, under checkpointLimiter), then stores the checkpoint in session.json and
 * logs it when it changed, both without blocking the event loop on fsync. The session.json update
 * never undoes a change the supervisor made meanwhile (see updateSessionFileAsync). A git that hangs
 * is killed after GIT_TIMEOUT_MS and the checkpoint fails, leaving session.json as it was.
 */
export async function writeCheckpoint(stateDir: string, projectDir: string, now = new Date()): Promise<Result<CheckpointResult>> {
  const git = await checkpointLimiter.run(() => gitStateAsync(projectDir));
  if (git.timedOut) return fail('failed', `${projectDir}: git did not answer within ${GIT_TIMEOUT_MS} ms (killed); no checkpoint written`);
  const checkpoint: Checkpoint = { at: now.toISOString(), gitHead: git.head, changedFiles: git.changedFiles };
  let previous: Checkpoint | null = null;
  const written = await updateSessionFileAsync(stateDir, (s) => {
    previous = s.lastCheckpoint;
    return { ...s, lastCheckpoint: checkpoint };
  });
  if (!written.ok) return written;
  const changed = checkpointChanged(previous, git.head, git.changedFiles);
  if (changed) {
    try {
      await appendEntryAsync(stateDir, [checkpointLogLine(previous, checkpoint)], now);
    } catch (err) {
      return fail('failed', `${stateDir}/work_log.md: ${(err as Error).message}`);
    }
  }
  return ok({ checkpoint, changed, session: written.value });
}
