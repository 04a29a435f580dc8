// Keeps a daemon behind the app (DESIGN.md §12): connects to the one that answers for this Mori
// home or starts it detached (the app's own binary as Node, unref'd, so quitting the app leaves it
// and the agents running), and when it dies starts it again with a growing delay, saying so through
// `onStatus` meanwhile (the tray shows it). Electron main process; imports no Electron.
import { startDaemon, type DaemonLaunch } from '../daemon-client/daemon-process.js';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';

/** First restart is immediate-ish: a daemon that died once usually starts fine again. */
const RESTART_FIRST_MS = 500;
/** A daemon failing at start is retried at most this often, so a broken install does not spin a core. */
const RESTART_MAX_MS = 30_000;

export type KeeperStatus = { state: 'open' | 'connecting' | 'closed' | 'restarting'; detail: string };

export interface DaemonKeeperOptions {
  home: string;
  launch: DaemonLaunch;
  /** The daemon's environment: the app's, with ELECTRON_RUN_AS_NODE=1 when the binary is Electron's. */
  env: NodeJS.ProcessEnv;
  connection: DaemonConnection;
  onStatus: (s: KeeperStatus) => void;
  log?: (line: string) => void;
}

export class DaemonKeeper {
  private delay = RESTART_FIRST_MS;
  private timer: NodeJS.Timeout | null = null;
  private starting = false;
  private stopped = false;
  private everOpen = false;
  restarts = 0;

  constructor(private readonly o: DaemonKeeperOptions) {
    o.connection.onState((state, detail) => {
      if (state === 'open') {
        this.everOpen = true;
        this.delay = RESTART_FIRST_MS;
        return o.onStatus({ state: 'open', detail: '' });
      }
      if (state === 'closed' && !this.stopped) {
        if (this.everOpen) o.onStatus({ state: 'restarting', detail });
        this.schedule();
        return;
      }
      if (!this.starting) o.onStatus({ state, detail });
    });
  }

  /** Starts the daemon when none answers, then keeps the connection. */
  async start(): Promise<void> {
    this.o.onStatus({ state: 'connecting', detail: '' });
    await this.ensure();
    this.o.connection.start();
  }

  /** Stops watching (quit): a dying daemon is no longer restarted. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer || this.starting || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.ensure().catch((err: unknown) => this.o.log?.(`restarting the Mori daemon failed: ${String(err)}`));
    }, this.delay);
    this.delay = Math.min(this.delay * 2, RESTART_MAX_MS);
  }

  private async ensure(): Promise<void> {
    if (this.starting || this.stopped) return;
    this.starting = true;
    try {
      const r = await startDaemon(this.o.home, [], this.o.env, this.o.launch);
      if (!r.ok) {
        this.o.log?.(`the Mori daemon did not start: ${r.message}`);
        this.o.onStatus({ state: 'restarting', detail: r.message.split('\n')[0] ?? '' });
        this.starting = false;
        return this.schedule();
      }
      if (r.value.started) {
        if (this.everOpen) this.restarts++;
        this.o.log?.(`started the Mori daemon (pid ${r.value.pid}, logs in ${r.value.logs})`);
      }
    } finally {
      this.starting = false;
    }
  }
}
