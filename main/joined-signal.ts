// Two abort signals joined into one that the caller releases when it is done with it. Where one of
// them lives as long as the process (the process-wide cancel of checks, a sender's stop),
// AbortSignal.any() is not used: Node 20 keeps a weak reference to every signal it made in each
// source's set of dependants and never removes it, one entry per call for the life of the process.
// Here the joined signal hears its sources through listeners that release() removes. Any process.

export interface JoinedSignal {
  signal: AbortSignal;
  /** Stops listening to the sources (idempotent); the joined signal keeps whatever state it has. */
  release(): void;
}

/** A signal aborted, with its reason, by whichever of `a` and `b` aborts first. */
export function joinSignals(a: AbortSignal, b: AbortSignal): JoinedSignal {
  const first = a.aborted ? a : b.aborted ? b : null;
  if (first !== null) return { signal: AbortSignal.abort(first.reason), release: () => undefined };
  const joined = new AbortController();
  const fromA = (): void => end(a);
  const fromB = (): void => end(b);
  const release = (): void => {
    a.removeEventListener('abort', fromA);
    b.removeEventListener('abort', fromB);
  };
  const end = (source: AbortSignal): void => {
    release();
    joined.abort(source.reason);
  };
  a.addEventListener('abort', fromA, { once: true });
  b.addEventListener('abort', fromB, { once: true });
  return { signal: joined.signal, release };
}
