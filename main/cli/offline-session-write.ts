// The CLI's own writer of session.json, for what `mori checkpoint`, `mori rollback`, `mori verify` and `mori set`
// do in their own process, a daemon running or not: the update re-reads the file and never undoes a
// write made meanwhile (updateSessionFileAsync), so it sits beside the supervisor's SessionStore, the
// writer everywhere else (test/lint/session-file-writers.test.ts names this file as the one exception).
// Runs in the CLI process.
import { Limiter } from '../state/limiter.js';
import { updateSessionFileAsync, type SessionWrite } from '../state/session-file.js';
import { CHECKPOINT_CONCURRENCY, type CheckpointPorts } from '../supervisor/checkpoints/checkpoint.js';

export const offlineSessionWrite: SessionWrite = (stateDir, change) => updateSessionFileAsync(stateDir, change);

/** A checkpoint's ports outside the supervisor; checkpoints of one process share one `limiter`. */
export function offlineCheckpointPorts(limiter = new Limiter(CHECKPOINT_CONCURRENCY)): CheckpointPorts {
  return { write: offlineSessionWrite, limiter };
}
