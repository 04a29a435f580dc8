// The daemon's one event stream (DESIGN.md §9, §12): the supervisor's events plus what a UI needs to
// stay current without polling — state files changed by others (the state watcher, Mori's own writes
// excluded), work-log growth by anyone, settings changes. Each event is numbered and kept in the event
// log (event-log.ts) before any listener hears it, so a reconnecting client can ask for what it missed.
// Keeps the watched state dirs in step with the sessions the supervisor knows; a session_state.md
// changed by others is looked at for its size (state-growth-watch.ts). The log starts with the daemon
// log's last events (earlier-events.ts). Runs in the daemon.
import { background } from '../background.js';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { DaemonEvent, LoggedEvent } from '../../common/ipc.js';
import { StateWatcher } from '../state/state-watcher.js';
import type { StateGrowthWatch } from './state-growth-watch.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { earlierEvents } from './earlier-events.js';
import { EventLog, eventLogCapacity } from './event-log.js';
import { SESSION_STATE, WORK_LOG } from '../../common/state-files.js';

/** An agent appending line by line makes bursts of writes; one `log.appended` per burst. */
const LOG_DEBOUNCE_MS = 100;

export class DaemonEvents {
  private readonly listeners = new Set<(e: LoggedEvent) => void>();
  /** Every event of this daemon run, numbered; the recent ones kept for `events.since`. */
  readonly log = new EventLog(eventLogCapacity());
  private readonly dirs = new Map<string, { id: string; name: string }>();
  private readonly stateWatcher: StateWatcher;
  private readonly logWatcher: FSWatcher;
  private readonly logTimers = new Map<string, NodeJS.Timeout>();
  private readonly unsubscribe: () => void;

  constructor(private readonly supervisor: Supervisor, growth: StateGrowthWatch | null = null) {
    // What came before this run, and this run's start-up, from the daemon log: numbered first, so a
    // window opened later reads them with `events.recent`. Half the log's room: this run has the rest.
    for (const e of earlierEvents(supervisor.home, Math.floor(this.log.capacity / 2))) this.log.append(e);
    this.stateWatcher = new StateWatcher((c) => {
      const s = this.dirs.get(path.resolve(c.stateDir));
      if (s) this.emit({ type: 'state.changed', at: Date.now(), sessionId: s.id, name: s.name, file: c.file, change: c.change });
      if (s && c.file === SESSION_STATE && growth) background(growth.check(c.stateDir), `looking at the size of ${s.name}'s session_state.md`);
    });
    this.logWatcher = watch([], { ignoreInitial: true, depth: 0 });
    for (const kind of ['add', 'change'] as const) this.logWatcher.on(kind, (file: string) => this.onLog(file));
    this.logWatcher.on('error', () => undefined);
    this.unsubscribe = supervisor.on((e) => {
      if ('sessionId' in e && !this.isWatched(e.sessionId)) background(this.sync(), 'watching a new session\'s state files');
      this.emit(e);
    });
    background(this.sync(), 'watching the sessions\' state files');
  }

  /** Hears every event from now on, with its number. */
  on(listener: (e: LoggedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: DaemonEvent): void {
    const logged = this.log.append(e);
    for (const l of [...this.listeners]) {
      try {
        l(logged);
      } catch {
        // one broken subscriber must not stop the others
      }
    }
  }

  /** Watches the state dir of every session the supervisor knows that is not watched yet. */
  sync(): Promise<void> {
    const known = this.supervisor.list();
    // A removed or renamed session's old dir is watched no more.
    const current = new Set(known.map((s) => path.resolve(s.stateDir)));
    for (const dir of [...this.dirs.keys()]) {
      if (current.has(dir)) continue;
      this.dirs.delete(dir);
      this.stateWatcher.remove(dir);
      void this.logWatcher.unwatch(path.join(dir, WORK_LOG));
    }
    for (const s of known) {
      const dir = path.resolve(s.stateDir);
      if (this.dirs.has(dir)) continue;
      this.dirs.set(dir, { id: s.id, name: s.name });
      background(this.stateWatcher.add(dir), `watching ${dir}`);
      this.logWatcher.add(path.join(dir, WORK_LOG));
    }
    // A watcher given no path yet never becomes ready: nothing to wait for (a fresh home, no sessions).
    if (this.dirs.size === 0) return Promise.resolve();
    return this.stateWatcher.whenReady();
  }

  async close(): Promise<void> {
    this.unsubscribe();
    for (const t of this.logTimers.values()) clearTimeout(t);
    this.logTimers.clear();
    this.listeners.clear();
    await Promise.all([this.stateWatcher.close(), this.logWatcher.close()]);
  }

  private isWatched(id: string): boolean {
    for (const s of this.dirs.values()) if (s.id === id) return true;
    return false;
  }

  private onLog(file: string): void {
    const dir = path.dirname(path.resolve(file));
    const prev = this.logTimers.get(dir);
    if (prev) clearTimeout(prev);
    this.logTimers.set(
      dir,
      setTimeout(() => {
        this.logTimers.delete(dir);
        const s = this.dirs.get(dir);
        if (s) this.emit({ type: 'log.appended', at: Date.now(), sessionId: s.id, name: s.name });
      }, LOG_DEBOUNCE_MS),
    );
  }
}
