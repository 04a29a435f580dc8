// A tiny typed listener registry used by the power and network sources. Main process.
// A throwing listener is reported and skipped, never allowed to break the timer that emitted.

export type Unsubscribe = () => void;

/** Where a listener's exception goes; the default writes it to stderr. */
export type ListenerErrorReporter = (error: unknown, type: string) => void;

const reportToStderr: ListenerErrorReporter = (error, type) => {
  console.error(`mori: a '${type}' listener threw:`, error);
};

export class Listeners<Events extends object> {
  private readonly byType = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(private readonly report: ListenerErrorReporter = reportToStderr) {}

  on<K extends keyof Events>(type: K, fn: (payload: Events[K]) => void): Unsubscribe {
    let set = this.byType.get(type);
    if (!set) this.byType.set(type, (set = new Set()));
    const entry = fn as (payload: never) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    const set = this.byType.get(type);
    if (!set) return;
    for (const fn of [...set]) {
      try {
        (fn as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.report(error, String(type));
      }
    }
  }

  clear(): void {
    this.byType.clear();
  }
}
