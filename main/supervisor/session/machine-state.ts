// The machine as the supervisor knows it (asleep, the last wake, shutting down): only the Supervisor
// changes it, every part reads it. Runs in the supervisor's process.

export class MachineState {
  private sleeping = false;
  private wokeAt: number | null = null;
  private stopping = false;

  get asleep(): boolean {
    return this.sleeping;
  }

  /** Awake ms of the last wake. */
  get lastWakeAt(): number | null {
    return this.wokeAt;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** The machine goes to sleep (true) or woke (false) at awake ms `monoMs`. */
  setAsleep(asleep: boolean, monoMs: number): void {
    this.sleeping = asleep;
    if (!asleep) this.wokeAt = monoMs;
  }

  /** The supervisor stops; false when it already was. */
  beginShutdown(): boolean {
    if (this.stopping) return false;
    this.stopping = true;
    return true;
  }
}
