// The tray tooltip's keep-awake line (DESIGN.md §8 "Keep awake"): whether the daemon keeps the
// machine from idle sleep now and for how many working sessions, from its `keep-awake` events, read
// once with `daemon.awake` at the app's start and when a daemon is (again) ready. The local daemon's
// connection only: a remote host's machine is not this one. Electron main process.
import type { DaemonEvent, IpcResult } from '../../common/ipc.js';
import type { Result } from '../../common/result.js';

export interface AwakeNow {
  holding: boolean;
  working: number;
}

/** `keeping the machine awake (2 working)`, or null while it does not. */
export const awakeLine = (a: AwakeNow | null): string | null => (a?.holding ? `keeping the machine awake (${a.working} working)` : null);

export class TrayAwake {
  private current: AwakeNow | null = null;

  constructor(
    private readonly request: (method: 'daemon.awake', params: Record<string, never>) => Promise<Result<IpcResult<'daemon.awake'>>>,
    private readonly onChange: () => void,
  ) {}

  now(): AwakeNow | null {
    return this.current;
  }

  heard(events: readonly DaemonEvent[]): void {
    for (const e of events) {
      if (e.type === 'keep-awake') this.set({ holding: e.holding, working: e.working });
      // A daemon that started (again) may hold already, or no longer: ask it. A failed read keeps what was known.
      else if (e.type === 'supervisor.ready') this.refresh().catch(() => undefined);
    }
  }

  /** Asks the daemon now (at the app's start, and after a daemon's start). */
  async refresh(): Promise<void> {
    const r = await this.request('daemon.awake', {});
    if (r.ok) this.set({ holding: r.value.holding, working: r.value.working });
  }

  private set(next: AwakeNow): void {
    if (this.current?.holding === next.holding && this.current.working === next.working) return;
    this.current = next;
    this.onChange();
  }
}
