// Keeps the running daemon's sessions in step with the registry ($MORI_HOME/registry.json): a
// session `mori init` registers while the daemon runs is loaded at once (listed, Start offered,
// nothing started), so the window shows it without a restart. The registry lives in the Mori home,
// which only the person writes (DESIGN.md §11: an agent that writes $MORI_HOME has the person's
// powers); and loading is not launching: a session starts only on the person's `start`. Runs in the
// daemon.
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { registryPath } from '../state/registry.js';
import type { Supervisor } from '../supervisor/supervisor.js';

/** A registry update is a lock, a temp file and a rename: one load per burst. */
const REGISTRY_DEBOUNCE_MS = 100;

export class RegistryWatch {
  private readonly watcher: FSWatcher;
  private timer: NodeJS.Timeout | null = null;
  private readonly file: string;

  /** `onSkipped` hears each registered session that could not be loaded, with the reason. */
  constructor(
    private readonly supervisor: Supervisor,
    home: string,
    private readonly onSkipped: (stateDir: string, message: string) => void,
  ) {
    this.file = registryPath(home);
    // The home is watched, not the file: the registry is replaced by a rename, and may not exist yet.
    this.watcher = watch(home, { ignoreInitial: true, depth: 0, ignored: (p) => p !== home && path.basename(p) !== path.basename(this.file) });
    for (const kind of ['add', 'change'] as const) this.watcher.on(kind, () => this.schedule());
    this.watcher.on('error', () => undefined);
  }

  /**
   * Resolves once the watch is in place, after loading what was registered before it was (since the
   * supervisor read the registry at its start): no registration falls between the two.
   */
  async ready(): Promise<void> {
    await new Promise<void>((resolve) => this.watcher.once('ready', () => resolve()));
    this.load();
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.watcher.close();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.load();
    }, REGISTRY_DEBOUNCE_MS);
  }

  private load(): void {
    const r = this.supervisor.loadNewlyRegistered();
    if (!r.ok) return this.onSkipped(this.file, r.message);
    for (const s of r.value.skipped) this.onSkipped(s.stateDir, s.message);
  }
}
