// One event of a supervisor part (VS Code's Emitter, made small): the part fires it; the Supervisor,
// once every part exists, subscribes the part built after it that acts on it. So a part never holds
// a closure to a part not built yet. Listeners are called in the order they subscribed; what each
// returns (a promise, for one that acts asynchronously) goes back to the firer, which may await it.
// Runs in the supervisor's process.

export class Emitter<A extends unknown[], R = void> {
  private readonly listeners = new Set<(...args: A) => R>();

  /** Subscribes `listener`; the function returned unsubscribes it. */
  readonly event = (listener: (...args: A) => R): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Tells every listener; what they returned, in order (none heard it: empty). */
  fire(...args: A): R[] {
    return [...this.listeners].map((l) => l(...args));
  }
}
