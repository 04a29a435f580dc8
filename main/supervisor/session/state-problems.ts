// State files Mori could not write, recorded in the Mori home (the state dir is the thing that cannot
// be written): which session, which file, the OS error, the intent that was meant to be stored (a
// stop the person asked for must not turn into an auto-resume) and the work-log entries still held
// (an interruption must not vanish with the supervisor that held it). `mori ls` shows them; the next
// supervisor honours the pending intent and appends the held entries; a later successful write clears
// the record. Any Node process.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import { Intent } from '../../../common/session.js';
import { writeAtomicSync } from '../../state/atomic-write.js';

export const STATE_PROBLEMS_DIR = 'state-problems';

/** `state-invalid`: a state file is not a plain file of its state dir (a FIFO, a symlink); else unwritable. */
export const StateProblemReason = z.enum(['state-unwritable', 'state-invalid']);
export type StateProblemReason = z.infer<typeof StateProblemReason>;

export const StateProblem = z.object({
  sessionId: z.string(),
  name: z.string(),
  stateDir: z.string(),
  /** What failed, as the OS said it: the path and the error. */
  message: z.string(),
  /** Absent in records written by older versions: unwritable. */
  reason: z.optional(StateProblemReason),
  at: z.string(),
  /** The intent that could not be stored, when the failed write changed it. */
  pendingIntent: z.nullable(Intent),
  /**
   * The work-log entries the supervisor held, not appended yet, oldest first (each with its own
   * time, an ISO string), how many it dropped past its bound, and why the first could not be
   * written. Absent when none is held (and in records of older versions).
   */
  held: z.optional(
    z.object({
      entries: z.array(z.object({ at: z.string(), line: z.string() })),
      dropped: z.number(),
      why: z.string(),
    }),
  ),
});
export type StateProblem = z.infer<typeof StateProblem>;

const fileOf = (home: string, sessionId: string): string => path.join(home, STATE_PROBLEMS_DIR, `${sessionId}.json`);

/** Records (or replaces) a session's problem. Returns an error message when even this cannot be written. */
export function recordStateProblem(home: string, problem: StateProblem): string | null {
  try {
    mkdirSync(path.join(home, STATE_PROBLEMS_DIR), { recursive: true, mode: 0o700 });
    writeAtomicSync(fileOf(home, problem.sessionId), JSON.stringify(problem, null, 2) + '\n');
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export function clearStateProblem(home: string, sessionId: string): void {
  rmSync(fileOf(home, sessionId), { force: true });
}

export function readStateProblem(home: string, sessionId: string): StateProblem | null {
  try {
    const parsed = StateProblem.safeParse(JSON.parse(readFileSync(fileOf(home, sessionId), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Every recorded problem, keyed by session id. */
export function readStateProblems(home: string): Map<string, StateProblem> {
  const out = new Map<string, StateProblem>();
  let names: string[];
  try {
    names = readdirSync(path.join(home, STATE_PROBLEMS_DIR));
  } catch {
    return out;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const p = readStateProblem(home, name.slice(0, -'.json'.length));
    if (p) out.set(p.sessionId, p);
  }
  return out;
}
