// One preference of the window kept in this browser (localStorage), not with the daemon: a size in
// pixels within bounds (a splitter's), or one of a few words (a layout, an order). A stored value that
// is not one of ours (another version's, or edited by hand) reads as the default; a browser that
// refuses storage keeps the choice for this page only. Runs in the renderer.

/** What a preference needs of Web Storage. */
export type PrefStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The page's localStorage, or null where reading it throws (storage disabled for the page). */
function pageStorage(): PrefStorage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

function read(storage: () => PrefStorage | null, key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: () => PrefStorage | null, key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // A browser that refuses storage: the choice holds for this page only.
  }
}

export interface SizePref {
  /** `px` rounded and kept within the bounds. */
  clamp: (px: number) => number;
  /** The kept size, or the default. */
  stored: () => number;
  /** Keeps `px`, within the bounds. */
  store: (px: number) => void;
}

export function sizePref(key: string, bounds: { fallback: number; min: number; max: number }, storage: () => PrefStorage | null = pageStorage): SizePref {
  const clamp = (px: number): number => Math.round(Math.min(bounds.max, Math.max(bounds.min, px)));
  return {
    clamp,
    stored: () => {
      const n = Number(read(storage, key));
      return Number.isFinite(n) && n > 0 ? clamp(n) : bounds.fallback;
    },
    store: (px) => write(storage, key, String(clamp(px))),
  };
}

export interface ChoicePref<T extends string> {
  /** The kept choice, or the default. */
  stored: () => T;
  store: (value: T) => void;
}

export function choicePref<T extends string>(key: string, values: readonly T[], fallback: T, storage: () => PrefStorage | null = pageStorage): ChoicePref<T> {
  return {
    stored: () => values.find((v) => v === read(storage, key)) ?? fallback,
    store: (value) => write(storage, key, value),
  };
}
