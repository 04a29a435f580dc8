// The supervisor's reads and writes of each session's state files: session.json (intent, exits,
// crashes, launch records, and the changes of other parts: checkpoints, a rollback's notice,
// verification results) and work-log entries. It is the one writer of session.json in the supervisor's
// process (test/lint/session-file-writers.test.ts). A write that fails is never ignored: it is reported
// once per distinct failure (the session needs attention: `state-unwritable`, with the path and the
// OS error), recorded in the Mori home with the intent that was meant (state-problems.ts), and
// cleared by the next write that succeeds. A state file that is not a plain file of its state dir (a
// symlink, a FIFO, a hard link: state-file-guard.ts) is `state-invalid` rather than unwritable: the
// person has to look at that file. Work-log entries never wait on the event loop: when a compaction
// holds the log, the entry is appended asynchronously, after any entry still waiting. What could
// not be written is not dropped: the changes of session.json it could not take and the work-log
// entries it could not append are held in memory and tried again every STATE_RETRY_MS (a disk given
// space again, a dir made writable), the changes replayed onto the file as it is then, the entries
// appended in order with their own times; the next write then clears the problem, also one an
// earlier supervisor recorded (its pending intent written first). The entries held are kept in that
// record too, rewritten as they go: a supervisor that ends before it could append them (killed while
// the disk is full) leaves them to the next, which appends them before any entry of its own, so an
// interruption is never lost under the resume that answers it. Runs in the supervisor's process.
import { SessionRecord } from '../../../common/session.js';
import { ok, type Result } from '../../../common/result.js';
import { background } from '../../background.js';
import { systemScheduler, type Cancel, type PowerClock, type Scheduler } from '../../power/clock.js';
import { readSessionFile, sessionFilePath, updateSessionFile, updateSessionFileAsync, type SessionChange } from '../../state/session-file.js';
import { stateFileDefect, UnsafeStateFile } from '../../state/state-file-guard.js';
import { appendEntry, appendEntryAsync, entryHeading, entryWasWritten, WORK_LOG_BUDGET_BYTES } from '../../state/work-log.js';
import { CompactionBusy } from '../../state/work-log-lock.js';
import { Emitter } from './emitter.js';
import type { SessionRuntime } from './session-runtime.js';
import { clearStateProblem, readStateProblem, recordStateProblem, type StateProblem, type StateProblemReason } from './state-problems.js';

/**
 * A state write that failed is tried again this often while it keeps failing: a disk given space
 * again is seen within seconds, and a try is one small write per failing session.
 */
export const STATE_RETRY_MS = 5_000;
/**
 * Work-log entries held per session while its log cannot be written; past this the oldest are
 * dropped and counted. An interruption is two or three entries: hours of a crash loop fit.
 */
export const HELD_ENTRIES_MAX = 200;

interface HeldEntry {
  at: Date;
  line: string;
}

export interface SessionStoreOptions {
  home: string;
  clock: PowerClock;
  /** Times the retries of failed writes; the system's by default. */
  scheduler?: Scheduler;
  /** The loaded session whose state dir this is, if any: its memory takes the changes written by update(). */
  loaded: (stateDir: string) => SessionRuntime | null;
}

export class SessionStore {
  /** The failure each session's file is in, by `<id>:<file>`; absent when its last write succeeded. */
  private readonly failing = new Map<string, string>();
  /** The intent in memory that session.json could not be given, by id. */
  private readonly pending = new Map<string, SessionRecord['intent']>();
  /** Entries being appended asynchronously, by id: later entries of the session queue behind them. */
  private readonly deferred = new Map<string, Promise<void>>();
  /** Changes session.json could not take, by id, oldest first: replayed onto the file by the next write. */
  private readonly unsaved = new Map<string, SessionChange[]>();
  /** Work-log entries not appended, by id, oldest first, and how many were dropped past HELD_ENTRIES_MAX. */
  private readonly held = new Map<string, { entries: HeldEntry[]; dropped: number; why: string }>();
  /** The sessions with something to write again, and the timer of the next try. */
  private readonly retrying = new Map<string, SessionRuntime>();
  private retryTimer: Cancel | null = null;
  /** Sessions whose problem on record (an earlier supervisor's) this store has taken over, by id. */
  private readonly adopted = new Set<string>();
  /** The record last written (or taken over) in the Mori home, by id: rewritten as the entries held change. */
  private readonly recorded = new Map<string, StateProblem>();

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
    if (!r.ok) return;
    try {
      // What the file could not take yet still holds.
      rt.setSession(replay(this.unsaved.get(rt.id) ?? [], r.value));
    } catch {
      rt.setSession(r.value);
    }
  }

  /**
   * Changes session.json. On failure the change still holds in memory (the supervisor acts on what it
   * meant), the failure is reported, a changed intent is kept in the Mori home, and the change is
   * held to be replayed by the next write (a try every STATE_RETRY_MS). Returns whether the file was
   * written.
   */
  write(rt: SessionRuntime, change: (s: SessionRecord) => SessionRecord): boolean {
    return this.writeFile(rt, change, true);
  }

  private writeFile(rt: SessionRuntime, change: (s: SessionRecord) => SessionRecord, keep: boolean): boolean {
    this.adopt(rt);
    const unsaved = this.unsaved.get(rt.id) ?? [];
    // The changes the file could not take before go first, onto the file as it is now.
    const r = updateSessionFile(rt.stateDir, (s) => change(replay(unsaved, s)));
    if (r.ok) {
      rt.setSession(r.value);
      this.pending.delete(rt.id);
      this.unsaved.delete(rt.id);
      this.succeeded(rt, 'session');
      return true;
    }
    try {
      rt.setSession(SessionRecord.parse(change(rt.session)));
    } catch {
      // the change itself is invalid: nothing better to hold than what was there
    }
    // A try again (not `keep`) is already among them.
    if (keep) this.unsaved.set(rt.id, [...unsaved, change]);
    this.retryLater(rt);
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
   * Appends a work-log entry. Returns whether it was written or queued (behind an entry being
   * appended, or held while the log cannot be written); a queued entry that fails is held and
   * reported like any other failure.
   */
  log(rt: SessionRuntime, line: string): boolean {
    this.adopt(rt);
    const at = new Date(this.options.clock.wallMs());
    if (!this.deferred.has(rt.id) && !this.held.has(rt.id)) {
      try {
        appendEntry(rt.stateDir, [line], at, WORK_LOG_BUDGET_BYTES, false);
        this.succeeded(rt, 'log');
        return true;
      } catch (err) {
        if (!(err instanceof CompactionBusy)) {
          if (!entryWasWritten(err)) this.hold(rt, { at, line }, err);
          this.logFailed(rt, err);
          return false;
        }
      }
    }
    this.enqueue(rt, async () => {
      // Behind entries held: this one waits its turn, so the log keeps their order.
      if (this.held.has(rt.id)) return this.hold(rt, { at, line }, null);
      try {
        await appendEntryAsync(rt.stateDir, [line], at);
        this.succeeded(rt, 'log');
      } catch (err) {
        if (!entryWasWritten(err)) this.hold(rt, { at, line }, err);
        this.logFailed(rt, err);
      }
    });
    return true;
  }

  /**
   * Takes over the problem an earlier supervisor recorded for `rt` and did not see cleared: the
   * work-log entries it still held are appended now (again every STATE_RETRY_MS while they cannot
   * be), ahead of every entry of this store; its pending intent is held as a change session.json has
   * yet to take (replayed by the next write, as the session runs on it already); and its failure
   * stands until a write of this store succeeds, which then clears the record. At the supervisor's
   * start for every session it loaded, else at the session's first write; once.
   */
  adopt(rt: SessionRuntime): void {
    if (this.adopted.has(rt.id)) return;
    this.adopted.add(rt.id);
    const problem = readStateProblem(this.options.home, rt.id);
    if (problem === null || this.failure(rt) !== null) return;
    this.recorded.set(rt.id, problem);
    const held = problem.held;
    if (held !== undefined && held.entries.length + held.dropped > 0) {
      const now = new Date(this.options.clock.wallMs());
      const entries = held.entries.map((e) => ({ at: Number.isNaN(Date.parse(e.at)) ? now : new Date(e.at), line: e.line }));
      this.held.set(rt.id, { entries, dropped: held.dropped, why: held.why });
      this.failing.set(`${rt.id}:log`, problem.message);
      this.enqueue(rt, () => this.appendHeld(rt));
      this.retryLater(rt);
    }
    const intent = problem.pendingIntent;
    if (intent === null) {
      this.failing.set(`${rt.id}:log`, problem.message);
      return;
    }
    this.unsaved.set(rt.id, [(s) => ({ ...s, intent }), ...(this.unsaved.get(rt.id) ?? [])]);
    this.pending.set(rt.id, intent);
    this.failing.set(`${rt.id}:session`, problem.message);
    this.retryLater(rt);
  }

  /** Runs `step` after the session's entries being appended, as one of them. */
  private enqueue(rt: SessionRuntime, step: () => Promise<void>): void {
    const queued = (this.deferred.get(rt.id) ?? Promise.resolve()).then(step);
    this.deferred.set(rt.id, queued);
    background(
      queued.finally(() => {
        if (this.deferred.get(rt.id) === queued) this.deferred.delete(rt.id);
      }),
      `appending to the work log of ${rt.stateDir}`,
    );
  }

  /** Keeps an entry that could not be appended (`err`: why, null when it only queued behind others). */
  private hold(rt: SessionRuntime, entry: HeldEntry, err: unknown): void {
    const h = this.held.get(rt.id) ?? { entries: [], dropped: 0, why: '' };
    h.entries.push(entry);
    if (h.entries.length > HELD_ENTRIES_MAX) {
      h.entries.shift();
      h.dropped += 1;
    }
    if (err !== null && h.why === '') h.why = (err as Error).message;
    this.held.set(rt.id, h);
    this.retryLater(rt);
    // One held for its error is recorded with that failure (logFailed); one only queued, here.
    if (err === null) this.recordHeld(rt);
  }

  /** Appends the held entries in order, then a note of why they are late; stops at the first that fails. */
  private async appendHeld(rt: SessionRuntime): Promise<void> {
    const h = this.held.get(rt.id);
    if (!h) return;
    const count = h.entries.length + h.dropped;
    const first = h.entries[0]?.at;
    while (h.entries.length > 0) {
      const e = h.entries[0]!;
      try {
        await appendEntryAsync(rt.stateDir, [e.line], e.at);
      } catch (err) {
        if (entryWasWritten(err)) h.entries.shift();
        this.logFailed(rt, err);
        return;
      }
      h.entries.shift();
      // Off the record once in the log: a supervisor ending now leaves the rest, not this one again
      // (ending between the two, it leaves this one to be appended twice, never lost).
      this.recordHeld(rt);
    }
    this.held.delete(rt.id);
    this.recordHeld(rt);
    const lost = h.dropped > 0 ? ` (the ${h.dropped} oldest were dropped, past ${HELD_ENTRIES_MAX} held)` : '';
    const since = first ? ` since ${entryHeading(first)}` : '';
    this.log(rt, `STATE WRITTEN LATE - ${count} entr${count === 1 ? 'y' : 'ies'} above could not be written${since}${lost}: ${h.why}`);
  }

  /** Tries the session's failed writes again after STATE_RETRY_MS. */
  private retryLater(rt: SessionRuntime): void {
    this.retrying.set(rt.id, rt);
    this.retryTimer ??= (this.options.scheduler ?? systemScheduler).after(STATE_RETRY_MS, () => this.retry());
  }

  private retry(): void {
    this.retryTimer = null;
    const due = [...this.retrying.values()];
    this.retrying.clear();
    for (const rt of due) {
      // A session removed or moved meanwhile: what it held goes with it.
      if (this.options.loaded(rt.stateDir) !== rt) {
        this.unsaved.delete(rt.id);
        this.held.delete(rt.id);
        continue;
      }
      if (this.unsaved.has(rt.id)) this.writeFile(rt, (s) => s, false);
      if (this.held.has(rt.id)) {
        this.enqueue(rt, () => this.appendHeld(rt));
        this.retrying.set(rt.id, rt);
      }
    }
    if (this.retrying.size > 0) this.retryTimer ??= (this.options.scheduler ?? systemScheduler).after(STATE_RETRY_MS, () => this.retry());
  }

  private logFailed(rt: SessionRuntime, err: unknown): void {
    const reason = err instanceof UnsafeStateFile ? 'state-invalid' : 'state-unwritable';
    this.failed(rt, 'log', `${(err as Error).message} (appending to the work log of ${rt.stateDir})`, reason);
  }

  private succeeded(rt: SessionRuntime, file: 'session' | 'log'): void {
    if (!this.failing.delete(`${rt.id}:${file}`)) return;
    const still = this.failure(rt);
    if (still === null) {
      clearStateProblem(this.options.home, rt.id);
      this.recorded.delete(rt.id);
      return;
    }
    // The work log still fails, so the record stays; but session.json took every change, so the
    // intent it held is no longer pending: left there, a next supervisor would put it back over the
    // file's newer one (a crash's interrupted over the relaunch's running: a second resume for it).
    const last = this.recorded.get(rt.id);
    if (file === 'session' && last !== undefined && last.pendingIntent !== null) this.record(rt, { ...last, message: still, pendingIntent: null });
  }

  /** The entries held for the session as its record keeps them; undefined when none is. */
  private heldRecord(id: string): StateProblem['held'] {
    const h = this.held.get(id);
    if (h === undefined || h.entries.length + h.dropped === 0) return undefined;
    return { entries: h.entries.map((e) => ({ at: e.at.toISOString(), line: e.line })), dropped: h.dropped, why: h.why };
  }

  /** Rewrites the session's record with the entries held now (while it has one: a failure stands). */
  private recordHeld(rt: SessionRuntime): void {
    const last = this.recorded.get(rt.id);
    if (last === undefined || this.failure(rt) === null) return;
    const { held: _was, ...rest } = last;
    const held = this.heldRecord(rt.id);
    this.record(rt, held === undefined ? rest : { ...rest, held });
  }

  private record(rt: SessionRuntime, problem: StateProblem): void {
    this.recorded.set(rt.id, problem);
    const err = recordStateProblem(this.options.home, problem);
    if (err !== null) process.stderr.write(`mori: ${rt.name}: cannot record that its state is unwritable either: ${err}\n`);
  }

  private failed(rt: SessionRuntime, file: 'session' | 'log', message: string, reason: StateProblemReason): void {
    const known = this.failing.get(`${rt.id}:${file}`);
    this.failing.set(`${rt.id}:${file}`, message);
    const held = this.heldRecord(rt.id);
    this.record(rt, {
      sessionId: rt.id,
      name: rt.name,
      stateDir: rt.stateDir,
      message,
      reason,
      at: new Date(this.options.clock.wallMs()).toISOString(),
      pendingIntent: this.pending.get(rt.id) ?? null,
      ...(held === undefined ? {} : { held }),
    });
    if (known !== message) this.unwritable.fire(rt, message, reason);
  }
}

/** The changes session.json could not take, applied in order onto `s`. */
function replay(changes: readonly SessionChange[], s: SessionRecord): SessionRecord {
  return changes.reduce((acc, c) => SessionRecord.parse(c(acc)), s);
}
