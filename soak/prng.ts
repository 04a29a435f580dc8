// The soak's seeded randomness: mulberry32, a small 32-bit generator whose whole state is one
// number, so a run is replayed from the seed it printed. Pure; any process.

/** A generator of floats in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface Rng {
  /** A float in [0, 1). */
  next: () => number;
  /** An integer in [lo, hi]. */
  int: (lo: number, hi: number) => number;
  /** One of `weights`' keys, drawn in proportion to its weight. */
  pick: <K extends string>(weights: Readonly<Record<K, number>>) => K;
}

export function rng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <K extends string>(weights: Readonly<Record<K, number>>): K => {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((n, [, w]) => n + w, 0);
    let x = next() * total;
    for (const [k, w] of entries) {
      x -= w;
      if (x < 0) return k;
    }
    return entries[entries.length - 1]![0];
  };
  return { next, int, pick };
}

/** A fresh seed for a run that was given none (printed first, so the run can be replayed). */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4_294_967_296) >>> 0;
}
