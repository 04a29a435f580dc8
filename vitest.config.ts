// Vitest configuration: unit, integration and lint tests run in Node; the CLI is compiled once
// first (test/global-setup.ts) so tests exercise the same JavaScript that `mori` runs.
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Removes the temp dirs each test file made, once its tests are done.
    setupFiles: ['test/setup/remove-temp-dirs.ts'],
    // Integration tests spawn real processes, ptys and tmux servers; on a 2-core machine they need
    // more than the 5 s default, and running too many files at once starves them.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    fileParallelism: true,
    // Three files at once on two cores: most integration tests wait on real processes, timers and
    // sockets rather than compute, and two at a time put the suite at 20 minutes.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
