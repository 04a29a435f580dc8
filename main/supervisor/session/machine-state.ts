// The machine as the supervisor knows it (asleep, the last wake, offline, shutting down): only the
// Supervisor changes it, every part reads it. Runs in the supervisor's process.

export class MachineState {
  private sleeping = false;
  private wokeAt: number | null = null;
  private stopping = false;
  private unreachable = false;

  get asleep(): boolean {
    return this.sleeping;
  }

  /** Awake ms of the last wake. */
  get lastWakeAt(): number | null {
    return this.wokeAt;
  }

  /** The network watch said offline and not yet online again (the interruption orchestrator's `network.*` events). */
  get offline(): boolean {
    return this.unreachable;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** The machine goes to sleep (true) or woke (false) at awake ms `monoMs`. */
  setAsleep(asleep: boolean, monoMs: number): void {
    this.sleeping = asleep;
    if (!asleep) this.wokeAt = monoMs;
  }

  /** The network watch said the machine went offline (true) or online again (false). */
  setOffline(offline: boolean): void {
    this.unreachable = offline;
  }

  /** The supervisor stops; false when it already was. */
  beginShutdown(): boolean {
    if (this.stopping) return false;
    this.stopping = true;
    return true;
  }
}
