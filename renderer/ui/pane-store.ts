// A pane's store (DESIGN.md §13): the pane's state, the one place it changes, its API calls and the
// guard that keeps a late answer out: a read takes a ticket, and its answer lands only while no newer
// read began and the pane is still open. The component reads the state through `usePane` and calls
// the store's actions; it only lays them out. Runs in the renderer.
import { useEffect, useState } from 'preact/hooks';

export abstract class PaneStore<S extends object> {
  private readonly listeners = new Set<() => void>();
  private readonly stops: (() => void)[] = [];
  private latest = 0;
  private closed = false;

  constructor(public state: S) {}

  /** Opens the pane: its first read and its subscriptions (each handed to `whileOpen`). */
  abstract open(): void;

  close(): void {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Calls `listener` after each change of the state; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected set(patch: Partial<S>): void {
    if (this.closed) return;
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Keeps a subscription until the pane closes. */
  protected whileOpen(stop: () => void): void {
    this.stops.push(stop);
  }

  /** Starts a read: the function says whether its answer still counts (no newer read, the pane open). */
  protected newRead(): () => boolean {
    const mine = ++this.latest;
    return () => !this.closed && mine === this.latest;
  }

  /** Joins the latest read (a follow-up of it): the function says whether it is still the latest. */
  protected sameRead(): () => boolean {
    const mine = this.latest;
    return () => !this.closed && mine === this.latest;
  }
}

/** The store of a mounted pane, made once, opened on mount and closed on unmount; re-renders on each change. */
export function usePane<T extends PaneStore<object>>(make: () => T): [T, T['state']] {
  const [store] = useState(make);
  const [, redraw] = useState(0);
  useEffect(() => {
    const off = store.subscribe(() => redraw((n) => n + 1));
    store.open();
    return () => {
      off();
      store.close();
    };
  }, [store]);
  return [store, store.state];
}
