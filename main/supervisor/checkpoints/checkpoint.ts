// Checkpoints (DESIGN.md §3, §4): a snapshot of the project's work tree (git/snapshot.ts) with its
// git HEAD and changed files, written into session.json every few minutes while an agent runs and prints (spread over the first interval so many
// sessions do not all run git at once), when it exits, when it is interrupted and when the supervisor
// stops, with a work-log entry only when a new snapshot was written (shared-work-tree.ts lets the
// sessions of one project checkpointed together read the work tree once). The comparison is
// pure; writing is the thin shell (writeCheckpoint), which hands its change of session.json to the
// writer it is given (the SessionStore in the supervisor); when they are taken is the Checkpointer's, and a
// failure is reported as the session's state being unwritable, never dropped. Git runs as
// asynchronous child processes, at most CHECKPOINT_CONCURRENCY at once through the limiter the
// process gives (one per supervisor, shared with the interruption orchestrator), so
// checkpointing every session on suspend never blocks the event loop (which the drift detector would
// read as a sleep). Runs in the supervisor's process and in the CLI.
import type { Checkpoint, SessionRecord } from '../../../common/session.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { GIT_TIMEOUT_MS } from '../../git/git-info.js';
import type { Limiter } from '../../state/limiter.js';
import { openRepoGit } from '../../git/repo-git.js';
import { readSessionFile, type SessionWrite } from '../../state/session-file.js';
import { askedNow, sharedChangedFiles, sharedWorkTree } from '../../git/shared-work-tree.js';
import { checkpointLine, GitFailed, recordCheckpoint } from '../../git/snapshot.js';
import { appendEntryAsync } from '../../state/work-log.js';
import { background } from '../../background.js';
import type { Terminal } from '../../terminals/terminal.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { SupervisorEvent } from '../../../common/events.js';
import type { Scheduler } from '../../power/clock.js';

/** DESIGN.md §4: often enough that a crash loses little, rare enough to cost nothing. */
export const CHECKPOINT_INTERVAL_MS = 5 * 60_000;
/**
 * Checkpoints reading git at once, process-wide. Git status is CPU- and disk-bound; on a two-core
 * machine two at a time finished a 20-session suspend sooner, and with shorter event-loop stalls,
 * than four (bench/checkpoint-suspend.bench.ts).
 */
export const CHECKPOINT_CONCURRENCY = 2;
/** Files named in the work-log entry; the full list is in session.json. */
const LOGGED_FILES = 8;

/** Whether HEAD or the set of changed files differs from the previous checkpoint (outside a git repository). */
export function checkpointChanged(previous: Checkpoint | null, gitHeadNow: string | null, changedFiles: readonly string[]): boolean {
  if (previous === null) return gitHeadNow !== null || changedFiles.length > 0;
  if (previous.gitHead !== gitHeadNow) return true;
  const before = new Set(previous.changedFiles);
  return before.size !== new Set(changedFiles).size || changedFiles.some((f) => !before.has(f));
}

/** What the work-log line says after the checkpoint's id: `4 files changed: a.ts, b.ts` and a moved HEAD. */
export function checkpointSummary(previous: Checkpoint | null, cp: Checkpoint): string {
  const moved = previous !== null && previous.gitHead !== cp.gitHead && cp.gitHead !== null ? ` (new commit ${cp.gitHead.slice(0, 12)})` : '';
  const files = cp.changedFiles.length === 0
    ? 'no uncommitted changes'
    : `${cp.changedFiles.length} file${cp.changedFiles.length === 1 ? '' : 's'} changed: ${cp.changedFiles.slice(0, LOGGED_FILES).join(', ')}${cp.changedFiles.length > LOGGED_FILES ? ', …' : ''}`;
  return `${files}${moved}`;
}

/** The work-log line for a checkpoint that changed: `CHECKPOINT 3f2a9c1 - 4 files changed: …`. */
export function checkpointLogLine(previous: Checkpoint | null, cp: Checkpoint): string {
  return cp.snapshot !== null ? checkpointLine(cp.snapshot.commit, checkpointSummary(previous, cp)) : `CHECKPOINT - no git repository; ${checkpointSummary(previous, cp)}`;
}

export interface CheckpointResult {
  checkpoint: Checkpoint;
  changed: boolean;
  session: SessionRecord;
}

/** What writing a checkpoint goes through: the writer of session.json, and the limiter of git runs. */
export interface CheckpointPorts {
  write: SessionWrite;
  /** At most CHECKPOINT_CONCURRENCY checkpoints read git at once; one per process. */
  limiter: Limiter;
}

export interface CheckpointOptions {
  /** Why it is taken: periodic, interrupted, stopped, exited, resume, on demand, before rollback. */
  reason?: string;
  /** The person's words for an on-demand checkpoint. */
  message?: string | undefined;
  /** Checkpoints kept besides the first (default CHECKPOINTS_KEPT). */
  keep?: number;
}

/**
 * Snapshots the work tree (asynchronously, under the ports' limiter) as the session's next checkpoint
 * unless it is unchanged, then has the checkpoint stored in session.json (through the ports' writer)
 * and logs it when it changed, both without blocking the event loop on fsync. The session.json update
 * never undoes a change the supervisor made meanwhile (see updateSessionFileAsync). A git that hangs is killed after
 * GIT_TIMEOUT_MS and the checkpoint fails, leaving session.json as it was. Outside a git repository
 * only the time is recorded (no snapshot).
 */
export async function writeCheckpoint(stateDir: string, projectDir: string, ports: CheckpointPorts, now = new Date(), opts: CheckpointOptions = {}): Promise<Result<CheckpointResult>> {
  const askedAt = askedNow();
  let previous: Checkpoint | null = null;
  const taken = await ports.limiter.run(async () => {
    // Read once its turn comes: a checkpoint written while this one waited is the one to compare with.
    const stored = readSessionFile(stateDir);
    if (!stored.ok) return stored;
    previous = stored.value.lastCheckpoint;
    return snapshotNow(stored.value.id, projectDir, previous, now, opts, askedAt);
  });
  if (!taken.ok) return taken;
  const checkpoint = taken.value.checkpoint;
  const written = await ports.write(stateDir, (s) => ({ ...s, lastCheckpoint: checkpoint }));
  if (!written.ok) return written;
  // A snapshot is logged only when its commit is new: a tree equal to the last checkpoint's (a moved
  // HEAD, or two checkpoints racing on a stale session.json) writes nothing, so it says nothing.
  const changed = checkpoint.snapshot !== null ? taken.value.created : checkpointChanged(previous, checkpoint.gitHead, checkpoint.changedFiles);
  if (changed) {
    try {
      await appendEntryAsync(stateDir, [checkpointLogLine(previous, checkpoint)], now);
    } catch (err) {
      return fail('failed', `${stateDir}/work_log.md: ${(err as Error).message}`);
    }
  }
  return ok({ checkpoint, changed, session: written.value });
}

async function snapshotNow(sessionId: string, projectDir: string, previous: Checkpoint | null, now: Date, opts: CheckpointOptions, askedAt: number): Promise<Result<{ checkpoint: Checkpoint; created: boolean }>> {
  const killed = fail('failed', `${projectDir}: git did not answer within ${GIT_TIMEOUT_MS} ms (killed); no checkpoint written`);
  const opened = await openRepoGit(projectDir);
  if (!opened.ok) {
    if (opened.timedOut) return killed;
    return ok({ checkpoint: { at: now.toISOString(), gitHead: null, changedFiles: [], snapshot: null }, created: false });
  }
  const git = opened.git;
  try {
    // Sessions of one project checkpointed together (a suspend) share one read of the work tree.
    const wt = await sharedWorkTree(git, projectDir, askedAt);
    // The same tree on the same HEAD changed the same files: no diff needed.
    const same = previous?.snapshot?.tree === wt.tree && previous.gitHead === wt.head;
    const changedFiles = same ? previous.changedFiles : await sharedChangedFiles(git, projectDir, wt);
    const base: Checkpoint = { at: now.toISOString(), gitHead: wt.head, changedFiles, snapshot: null };
    const meta = { at: base.at, reason: opts.reason ?? 'periodic', files: changedFiles.length, summary: checkpointSummary(previous, base), message: opts.message };
    const r = await recordCheckpoint(git, sessionId, wt, previous?.snapshot ?? null, meta, opts.keep);
    return ok({ checkpoint: { ...base, snapshot: r.snapshot }, created: r.created });
  } catch (err) {
    if (err instanceof GitFailed && err.timedOut) return killed;
    return fail('failed', `${projectDir}: ${(err as Error).message}; no checkpoint written`);
  } finally {
    git.close();
  }
}

/** What checkpointing uses. */
export interface CheckpointerPorts {
  scheduler: Scheduler;
  random: () => number;
  moves: Pick<SessionTransitions, 'unwritable' | 'base'>;
  /** The store's writer (which also gives the loaded session the checkpoint) and the process's git limiter. */
  files: CheckpointPorts;
  emit(e: SupervisorEvent): void;
  /** Between checkpoints while an agent runs; default CHECKPOINT_INTERVAL_MS. */
  intervalMs?: number | undefined;
}

export class Checkpointer {
  /** Checkpoints being written now, so a suspend can wait until every one is on disk. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly ports: CheckpointerPorts) {}

  /** Resolves once every checkpoint begun so far is written (or its failure reported). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * Checkpoints on the interval for as long as `terminal` is the session's, skipping an interval in
   * which the agent printed nothing: an agent at work shows it (its answer, a tool's output, a
   * spinner), while a quiet session's check still costs three gits, each a fork of this process
   * (100 idle sessions cost 6.6 % of a core that way). Every other checkpoint (an interruption, an
   * exit, a resume, a rollback, on demand) is taken whatever was printed.
   */
  schedule(rt: SessionRuntime, terminal: Terminal): void {
    const every = this.ports.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    const first = Math.round(every * (0.5 + this.ports.random() / 2));
    // The first interval counts as printed: the launch itself is a change worth a checkpoint.
    let printed = true;
    const stopListening = terminal.onData(() => (printed = true));
    const tick = (): void => {
      rt.timers.fired('checkpoint');
      if (rt.terminal !== terminal) return void stopListening();
      rt.timers.set('checkpoint', this.ports.scheduler.after(every, tick));
      if (!printed) return;
      printed = false;
      background(this.take(rt), `checkpointing ${rt.name}`);
    };
    rt.timers.set('checkpoint', this.ports.scheduler.after(first, tick));
  }

  /** Takes one checkpoint now; resolves when written. Failures are reported, never thrown. */
  take(rt: SessionRuntime, reason = 'periodic'): Promise<void> {
    const p = this.write(rt, reason).catch((err: unknown) => this.ports.moves.unwritable(rt, `checkpoint failed: ${String(err)}`));
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async write(rt: SessionRuntime, reason: string): Promise<void> {
    const r = await writeCheckpoint(rt.stateDir, rt.projectDir, this.ports.files, new Date(), { reason });
    if (!r.ok) {
      this.ports.moves.unwritable(rt, `checkpoint not written: ${r.message}`);
      return;
    }
    const cp = r.value.checkpoint;
    this.ports.emit({ type: 'checkpoint.written', ...this.ports.moves.base(rt), gitHead: cp.gitHead, changedFiles: cp.changedFiles.length, changed: r.value.changed });
  }
}
