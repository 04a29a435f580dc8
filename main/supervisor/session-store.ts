// The supervisor's reads and writes of each session's state files: session.json (intent, exits,
// crashes, launch records) and work-log entries. A write that fails is never ignored: it is reported
// once per distinct failure (the session needs attention: `state-unwritable`, with the path and the
// OS error), recorded in the Mori home with the intent that was meant (state-problems.ts), and
// cleared by the next write that succeeds. Runs in the supervisor's process.
import { SessionFile } from '../../common/session.js';
import type { PowerClock } from '../power/clock.js';
import { readSessionFile, updateSessionFile } from '../state/session-file.js';
import { appendEntry } from '../state/work-log.js';
import type { SessionRuntime } from './session-runtime.js';
import { clearStateProblem, recordStateProblem } from './state-problems.js';

export interface SessionStoreOptions {
  home: string;
  clock: PowerClock;
  /** A state file of `rt` could not be written; called once per distinct failure. */
  onUnwritable: (rt: SessionRuntime, message: string) => void;
}

export class SessionStore {
  /** The failure each session's file is in, by `<id>:<file>`; absent when its last write succeeded. */
  private readonly failing = new Map<string, string>();
  /** The intent in memory that session.json could not be given, by id. */
  private readonly pending = new Map<string, SessionFile['intent']>();

  constructor(private readonly options: SessionStoreOptions) {}

  /** Whether the session's state files could not be written lately. */
  failure(rt: SessionRuntime): string | null {
    return this.failing.get(`${rt.id}:session`) ?? this.failing.get(`${rt.id}:log`) ?? null;
  }

  /** Re-reads session.json (the person or `mori` may have changed it); keeps what is known when it cannot. */
  reload(rt: SessionRuntime): void {
    const r = readSessionFile(rt.stateDir);
    if (r.ok) rt.session = r.value;
  }

  /**
   * Changes session.json. On failure the change still holds in memory (the supervisor acts on what it
   * meant), the failure is reported, and a changed intent is kept in the Mori home. Returns whether
   * the file was written.
   */
  write(rt: SessionRuntime, change: (s: SessionFile) => SessionFile): boolean {
    const r = updateSessionFile(rt.stateDir, change);
    if (r.ok) {
      rt.session = r.value;
      this.pending.delete(rt.id);
      this.succeeded(rt, 'session');
      return true;
    }
    try {
      rt.session = SessionFile.parse(change(rt.session));
    } catch {
      // the change itself is invalid: nothing better to hold than what was there
    }
    // What session.json should say but does not: the next supervisor honours it.
    this.pending.set(rt.id, rt.session.intent);
    this.failed(rt, 'session', r.message);
    return false;
  }

  /** Appends a work-log entry. Returns whether it was written. */
  log(rt: SessionRuntime, line: string): boolean {
    try {
      appendEntry(rt.stateDir, [line], new Date(this.options.clock.wallMs()));
      this.succeeded(rt, 'log');
      return true;
    } catch (err) {
      this.failed(rt, 'log', `${(err as Error).message} (appending to the work log of ${rt.stateDir})`);
      return false;
    }
  }

  private succeeded(rt: SessionRuntime, file: 'session' | 'log'): void {
    if (!this.failing.delete(`${rt.id}:${file}`)) return;
    if (this.failure(rt) === null) clearStateProblem(this.options.home, rt.id);
  }

  private failed(rt: SessionRuntime, file: 'session' | 'log', message: string): void {
    const known = this.failing.get(`${rt.id}:${file}`);
    this.failing.set(`${rt.id}:${file}`, message);
    const recorded = recordStateProblem(this.options.home, {
      sessionId: rt.id,
      name: rt.name,
      stateDir: rt.stateDir,
      message,
      at: new Date(this.options.clock.wallMs()).toISOString(),
      pendingIntent: this.pending.get(rt.id) ?? null,
    });
    if (recorded !== null) process.stderr.write(`mori: ${rt.name}: cannot record that its state is unwritable either: ${recorded}\n`);
    if (known !== message) this.options.onUnwritable(rt, message);
  }
}
