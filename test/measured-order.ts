// Vitest's file order: the files that took longest in a measured run first (test/durations.json,
// written by scripts/test-durations.mjs), so no long file starts near the end and holds the run up
// while the other workers sit idle. A fresh clone (CI) has no Vitest cache of durations, hence a
// file kept in the repository. Files it does not know (new ones) follow, largest first, the size
// standing in for a time never measured. Only the order changes: every file runs all the same.
// Runs in Vitest's main process.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = path.join(import.meta.dirname, 'durations.json');

/** Seconds per test file (paths from the repository's root) from `file`; a clear error when it is not that. */
export function readDurations(file = DURATIONS_FILE): Map<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${e instanceof Error ? e.message : String(e)} (write it again with npm run test:durations)`, { cause: e });
  }
  const files = (parsed as { files?: unknown } | null)?.files;
  if (typeof files !== 'object' || files === null) throw new Error(`${file}: no "files" object of seconds per test file (write it again with npm run test:durations)`);
  const seconds = new Map<string, number>();
  for (const [p, s] of Object.entries(files)) {
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) throw new Error(`${file}: "${p}" has ${JSON.stringify(s)}, not a number of seconds`);
    seconds.set(p, s);
  }
  return seconds;
}

/** `files` longest measured first; unknown ones after them, largest first; ties by path, so the order is the same on every machine. */
export function measuredOrder<T>(files: readonly T[], pathOf: (f: T) => string, sizeOf: (f: T) => number, seconds: ReadonlyMap<string, number>): T[] {
  const keyed = files.map((f) => ({ f, p: pathOf(f), s: seconds.get(pathOf(f)) }));
  const size = new Map(keyed.filter((k) => k.s === undefined).map((k) => [k.p, sizeOf(k.f)]));
  return keyed
    .sort((a, b) => {
      if (a.s !== undefined && b.s !== undefined) return b.s - a.s || a.p.localeCompare(b.p);
      if (a.s !== undefined) return -1;
      if (b.s !== undefined) return 1;
      return (size.get(b.p) ?? 0) - (size.get(a.p) ?? 0) || a.p.localeCompare(b.p);
    })
    .map((k) => k.f);
}

export class MeasuredOrder extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rel = (f: TestSpecification): string => path.relative(root, f.moduleId).split(path.sep).join('/');
    return Promise.resolve(measuredOrder(files, rel, (f) => statSync(f.moduleId).size, readDurations()));
  }
}
