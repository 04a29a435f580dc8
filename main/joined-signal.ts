// Abort signals heard without piling listeners on them. Some live as long as the process (the
// process-wide cancel of checks, a sender's stop) or a round of work (a wake's resume of every
// session), and many operations hear them at once: one listener each would pass Node's limit of 10
// (MaxListenersExceededWarning) with a dozen sessions verifying together. Here every hearer of a
// signal shares its one listener, removed when the last stops hearing. Two signals are joined the
// same way, not with AbortSignal.any(): Node 20 keeps a weak reference to every signal it made in
// each source's set of dependants and never removes it, one entry per call for the life of the
// process. Any process.

export interface JoinedSignal {
  signal: AbortSignal;
  /** Stops listening to the sources (idempotent); the joined signal keeps whatever state it has. */
  release(): void;
}

interface Hearing {
  hearers: Set<{ fn: () => void }>;
  listener: () => void;
}

/** Per signal heard, its hearers and the one listener that calls them. */
const hearings = new WeakMap<AbortSignal, Hearing>();

/**
 * Calls `fn` once when `signal` aborts (not if it has already: the caller looks first). However many
 * hear a signal at once, it holds one listener; the returned stop (idempotent) ends this hearing, and
 * the last one removes the listener.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let hearing = hearings.get(signal);
  if (hearing === undefined) {
    const hearers = new Set<{ fn: () => void }>();
    const listener = (): void => {
      hearings.delete(signal);
      const all = [...hearers];
      hearers.clear();
      for (const h of all) {
        try {
          h.fn();
        } catch (err) {
          // As an EventTarget reports a throwing listener: the others are still called.
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    };
    hearing = { hearers, listener };
    hearings.set(signal, hearing);
    signal.addEventListener('abort', listener, { once: true });
  }
  const own = hearing;
  const entry = { fn };
  own.hearers.add(entry);
  return () => {
    if (!own.hearers.delete(entry) || own.hearers.size > 0 || hearings.get(signal) !== own) return;
    hearings.delete(signal);
    signal.removeEventListener('abort', own.listener);
  };
}

/** A signal aborted, with its reason, by whichever of `a` and `b` aborts first. */
export function joinSignals(a: AbortSignal, b: AbortSignal): JoinedSignal {
  const first = a.aborted ? a : b.aborted ? b : null;
  if (first !== null) return { signal: AbortSignal.abort(first.reason), release: () => undefined };
  const joined = new AbortController();
  const release = (): void => {
    stopA();
    stopB();
  };
  const end = (source: AbortSignal): void => {
    release();
    joined.abort(source.reason);
  };
  const stopA = onAbort(a, () => end(a));
  const stopB = onAbort(b, () => end(b));
  return { signal: joined.signal, release };
}
