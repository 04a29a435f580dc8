// Test setup, run before every test file: the directories the file's tests make under the system
// temp dir with mkdtempSync are removed once the file's tests (and its own afterAll hooks, which
// stop what uses them) are done, so a run leaves no `mori-*` dirs behind. Only directories made in
// this process directly under os.tmpdir() are taken; a failure to remove one is not a test failure.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

interface Tracking {
  /** The dirs made since the current test file began. */
  made: string[];
}

// One wrapper per process: a worker runs many files, each with a fresh module graph but the same fs.
const KEY = Symbol.for('mori.test.tempDirs');
const holder = globalThis as typeof globalThis & { [KEY]?: Tracking };
if (!holder[KEY]) {
  const tracking: Tracking = { made: [] };
  holder[KEY] = tracking;
  const original = fs.mkdtempSync;
  fs.mkdtempSync = ((prefix: string, options?: fs.EncodingOption) => {
    const dir = original(prefix, options);
    if (path.dirname(path.resolve(String(dir))) === path.resolve(os.tmpdir())) tracking.made.push(String(dir));
    return dir;
  }) as typeof fs.mkdtempSync;
  // Named imports (`import { mkdtempSync } from 'node:fs'`) see the wrapper too.
  syncBuiltinESMExports();
}
const tracking = holder[KEY] as Tracking;
tracking.made = [];

// Registered before the file's own hooks, so it runs after them (after hooks run in reverse order).
afterAll(() => {
  for (const dir of tracking.made.splice(0)) {
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Left in place: something still holds it (a process the test did not stop).
    }
  }
});
