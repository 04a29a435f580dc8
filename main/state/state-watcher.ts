// Watches state dirs with chokidar and reports edits made by anyone but Mori (the agent, an editor, a
// person) as typed StateFileChanged events — what the UI shows live. Debounced per file; survives an
// editor's rename-save and a file deleted and recreated, because the directory is watched, not the
// file. Runs in the supervisor's process.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { StateFileChanged } from '../../common/state-events.js';
import { isOwnWrite } from './own-writes.js';
import { STATE_FILES, type StateFileName } from '../../common/state-files.js';

/** Editors and agents write in bursts (truncate, write, write, rename); one event per burst. */
export const WATCH_DEBOUNCE_MS = 150;

export class StateWatcher {
  private readonly watcher: FSWatcher;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ready: Promise<void>;

  constructor(private readonly onChange: (e: StateFileChanged) => void, private readonly debounceMs = WATCH_DEBOUNCE_MS) {
    this.watcher = watch([], { ignoreInitial: true, depth: 0, atomic: true });
    this.ready = new Promise((resolve) => this.watcher.once('ready', () => resolve()));
    for (const event of ['add', 'change', 'unlink'] as const) {
      this.watcher.on(event, (file: string) => this.schedule(file));
    }
    this.watcher.on('error', () => {
      // A state dir that disappears (deleted project) is not fatal; it is reported by `mori ls`.
    });
  }

  add(stateDir: string): Promise<void> {
    this.watcher.add(stateDir);
    return this.whenReady();
  }

  remove(stateDir: string): void {
    this.watcher.unwatch(stateDir);
  }

  /** Resolves when chokidar has finished its initial scan of every dir added so far. */
  async whenReady(): Promise<void> {
    await this.ready;
  }

  async close(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.watcher.close();
  }

  private schedule(file: string): void {
    const name = path.basename(file);
    if (!(STATE_FILES as readonly string[]).includes(name)) return;
    const prev = this.timers.get(file);
    if (prev) clearTimeout(prev);
    this.timers.set(
      file,
      setTimeout(() => {
        this.timers.delete(file);
        this.settle(file, name as StateFileName);
      }, this.debounceMs),
    );
  }

  private settle(file: string, name: StateFileName): void {
    if (isOwnWrite(file)) return;
    const change = existsSync(file) ? 'changed' : 'deleted';
    this.onChange({ type: 'state.changed', stateDir: path.dirname(file), file: name, change });
  }
}
