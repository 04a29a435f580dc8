// The supervisor's reads and writes of each session's state files: session.json (intent, exits,
// crashes, launch records, and the changes of other parts: checkpoints, a rollback's notice,
// verification results) and work-log entries. It is the one writer of session.json in the supervisor's
// process (test/lint/session-file-writers.test.ts). A write that fails is never ignored: it is reported
// once per distinct failure (the session needs attention: `state-unwritable`, with the path and the
// OS error), recorded in the Mori home with the intent that was meant (state-problems.ts), and
// cleared by the next write that succeeds: this supervisor's, or the next one's first when this one
// ended before (that write carries the recorded intent into session.json). A state file that is not a plain file of its state dir (a
// symlink, a FIFO, a hard link: state-file-guard.ts) is `state-invalid` rather than unwritable: the
// person has to look at that file. Work-log entries never wait on the event loop: when a compaction
// holds the log, the entry is appended asynchronously, after any entry still waiting. Runs in the
// supervisor's process.
import { SessionRecord } from '../../../common/session.js';
import { ok, type Result } from '../../../common/result.js';
import { background } from '../../background.js';
import type { PowerClock } from '../../power/clock.js';
import { readSessionFile, sessionFilePath, updateSessionFile, updateSessionFileAsync, type SessionChange } from '../../state/session-file.js';
import { stateFileDefect, UnsafeStateFile } from '../../state/state-file-guard.js';
import { appendEntry, appendEntryAsync, WORK_LOG_BUDGET_BYTES } from '../../state/work-log.js';
import { CompactionBusy } from '../../state/work-log-lock.js';
import { Emitter } from './emitter.js';
import type { SessionRuntime } from './session-runtime.js';
import { clearStateProblem, readStateProblem, recordStateProblem, type StateProblemReason } from './state-problems.js';

export interface SessionStoreOptions {
  home: string;
  clock: PowerClock;
  /** The loaded session whose state dir this is, if any: its memory takes the changes written by update(). */
  loaded: (stateDir: string) => SessionRuntime | null;
}

export class SessionStore {
  /** The failure each session's file is in, by `<id>:<file>`; absent when its last write succeeded. */
  private readonly failing = new Map<string, string>();
  /** The intent in memory that session.json could not be given, by id. */
  private readonly pending = new Map<string, SessionRecord['intent']>();
  /** Sessions whose session.json this supervisor has written: a record left by an earlier one is settled. */
  private readonly written = new Set<string>();
  /** Entries being appended asynchronously, by id: later entries of the session queue behind them. */
  private readonly deferred = new Map<string, Promise<void>>();

  private readonly unwritable = new Emitter<[rt: SessionRuntime, message: string, reason: StateProblemReason]>();
  /** A state file of `rt` could not be written; told once per distinct failure. */
  readonly onUnwritable = this.unwritable.event;

  constructor(private readonly options: SessionStoreOptions) {}

  /** Whether the session's state files could not be written lately. */
  failure(rt: SessionRuntime): string | null {
    return this.failing.get(`${rt.id}:session`) ?? this.failing.get(`${rt.id}:log`) ?? null;
  }

  /** Re-reads session.json (the person or `mori` may have changed it); keeps what is known when it cannot. */
  reload(rt: SessionRuntime): void {
    const r = readSessionFile(rt.stateDir);
    if (r.ok) rt.setSession(r.value);
  }

  /**
   * Changes session.json. On failure the change still holds in memory (the supervisor acts on what it
   * meant), the failure is reported, and a changed intent is kept in the Mori home. Returns whether
   * the file was written.
   */
  write(rt: SessionRuntime, change: (s: SessionRecord) => SessionRecord): boolean {
    // A problem an earlier supervisor recorded and did not live to clear: its intent (in memory since
    // the load, session-set.ts) goes into the file with this first write, and the record with it.
    const inherited = this.written.has(rt.id) ? null : readStateProblem(this.options.home, rt.id);
    const intent = inherited?.pendingIntent ?? null;
    const r = updateSessionFile(rt.stateDir, intent === null ? change : (s) => change({ ...s, intent }));
    if (r.ok) {
      this.written.add(rt.id);
      rt.setSession(r.value);
      this.pending.delete(rt.id);
      this.succeeded(rt, 'session', inherited !== null);
      return true;
    }
    try {
      rt.setSession(SessionRecord.parse(change(rt.session)));
    } catch {
      // the change itself is invalid: nothing better to hold than what was there
    }
    // What session.json should say but does not: the next supervisor honours it.
    this.pending.set(rt.id, rt.session.intent);
    // A session.json that is not a plain file (a FIFO, a symlink) is invalid, not merely unwritable.
    const invalid = stateFileDefect(sessionFilePath(rt.stateDir), false) !== null;
    this.failed(rt, 'session', r.message, invalid ? 'state-invalid' : 'state-unwritable');
    return false;
  }

  /**
   * Changes session.json of the session in `stateDir` without blocking the event loop on fsync, never
   * undoing a write made meanwhile (updateSessionFileAsync); a loaded session's memory takes the same
   * change once it is written. For the changes other parts make (a checkpoint, a rollback's notice,
   * a verification's results): a failure is answered, for the caller to report in its own words.
   */
  async update(stateDir: string, change: SessionChange): Promise<Result<SessionRecord>> {
    const r = await updateSessionFileAsync(stateDir, change);
    if (!r.ok) return r;
    const rt = this.options.loaded(stateDir);
    // Only the change: anything else held in memory (a change not yet written) stays.
    if (rt !== null) rt.setSession(SessionRecord.parse(change(rt.session)));
    return ok(r.value);
  }

  /**
   * Appends a work-log entry. Returns whether it was written or queued; a queued entry that fails is
   * reported like any other failure.
   */
  log(rt: SessionRuntime, line: string): boolean {
    const at = new Date(this.options.clock.wallMs());
    if (!this.deferred.has(rt.id)) {
      try {
        appendEntry(rt.stateDir, [line], at, WORK_LOG_BUDGET_BYTES, false);
        this.succeeded(rt, 'log');
        return true;
      } catch (err) {
        if (!(err instanceof CompactionBusy)) {
          this.logFailed(rt, err);
          return false;
        }
      }
    }
    const queued = (this.deferred.get(rt.id) ?? Promise.resolve())
      .then(() => appendEntryAsync(rt.stateDir, [line], at))
      .then(
        () => this.succeeded(rt, 'log'),
        (err: unknown) => this.logFailed(rt, err),
      );
    this.deferred.set(rt.id, queued);
    background(
      queued.finally(() => {
        if (this.deferred.get(rt.id) === queued) this.deferred.delete(rt.id);
      }),
      `appending to the work log of ${rt.stateDir}`,
    );
    return true;
  }

  private logFailed(rt: SessionRuntime, err: unknown): void {
    const reason = err instanceof UnsafeStateFile ? 'state-invalid' : 'state-unwritable';
    this.failed(rt, 'log', `${(err as Error).message} (appending to the work log of ${rt.stateDir})`, reason);
  }

  private succeeded(rt: SessionRuntime, file: 'session' | 'log', inherited = false): void {
    if (!this.failing.delete(`${rt.id}:${file}`) && !inherited) return;
    if (this.failure(rt) === null) clearStateProblem(this.options.home, rt.id);
  }

  private failed(rt: SessionRuntime, file: 'session' | 'log', message: string, reason: StateProblemReason): void {
    const known = this.failing.get(`${rt.id}:${file}`);
    this.failing.set(`${rt.id}:${file}`, message);
    const recorded = recordStateProblem(this.options.home, {
      sessionId: rt.id,
      name: rt.name,
      stateDir: rt.stateDir,
      message,
      reason,
      at: new Date(this.options.clock.wallMs()).toISOString(),
      pendingIntent: this.pending.get(rt.id) ?? null,
    });
    if (recorded !== null) process.stderr.write(`mori: ${rt.name}: cannot record that its state is unwritable either: ${recorded}\n`);
    if (known !== message) this.unwritable.fire(rt, message, reason);
  }
}
