// The app's own hold on sleep while the daemon keeps the machine awake (DESIGN.md §8 "Keep awake"):
// Electron's powerSaveBlocker in its `prevent-app-suspension` kind, started when the daemon's
// keep-awake events say it holds and stopped when they say it no longer does, or when the app quits.
// It is the only hold on Windows, where the daemon alone has no inhibitor program, and a second one
// elsewhere (harmless: the system counts holders). Electron main process.
import type { AwakeNow } from './tray-awake.js';

/** The part of Electron's `powerSaveBlocker` this uses (injected, so tests pass a recording fake). */
export interface PowerSaveBlockerPort {
  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number;
  stop(id: number): void;
}

export class AppAwakeBlocker {
  private id: number | null = null;

  constructor(private readonly blocker: PowerSaveBlockerPort) {}

  /** Whether the app holds now. */
  get holding(): boolean {
    return this.id !== null;
  }

  /** Follows what the daemon says (null: not known — e.g. no daemon yet — holds nothing). */
  follow(awake: AwakeNow | null): void {
    if (awake?.holding) {
      if (this.id === null) this.id = this.blocker.start('prevent-app-suspension');
    } else this.stop();
  }

  stop(): void {
    if (this.id === null) return;
    this.blocker.stop(this.id);
    this.id = null;
  }
}
