// Vitest configuration: the tests in projects by kind, all in Node. unit runs no process of Mori's
// and moves time by hand where time matters (manual clocks, in-memory backends); lint (test/lint) checks the code
// itself through ESLint and TypeScript, seconds of compute each; integration runs
// real processes, ptys, tmux, sockets and the built CLI; e2e drives the window in a real browser
// or Electron; agents-real runs the real agent CLIs (Claude Code, Codex, Gemini CLI, opencode)
// against their API stand-ins. `npx vitest` with no test file named runs unit alone; `npm test`
// runs every project, and test/project-times.ts prints each one's time at the end. All projects
// share one pool of workers, the files in one order (test/measured-order.ts).
import { defineConfig } from 'vitest/config';
import { MeasuredOrder } from './test/measured-order.js';
import { ProjectTimes } from './test/project-times.js';

/** The files that start a real agent CLI: their own project, the slowest and the one that needs test/support/agent-clis/install.sh. */
const AGENTS_REAL = ['test/integration/agents/real-*.test.ts', 'test/integration/agents/hooks/real-*.test.ts'];

/** Removes the temp dirs each test file made, once its tests are done. */
const setupFiles = ['test/support/setup/remove-temp-dirs.ts'];

/**
 * Real processes, ptys, tmux servers and browsers on a 2-core machine need more than the 5 s
 * default. The projects that spawn `mori` compile the CLI first (test/support/global-setup.ts, once a run)
 * so they exercise the same JavaScript that `mori` runs.
 */
const REAL_PROCESSES = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles,
  // On CI (a fresh, loaded runner) a test that fails is tried once more; one that passes only then
  // is named at the end of the run (test/project-times.ts), so a flaky test is seen, not hidden.
  retry: process.env['CI'] ? 1 : 0,
};

/**
 * With no test file named and no --project, only unit runs: `npx vitest` is the fast loop. A file
 * or folder under test/ named on the command line is looked for in every project.
 */
function defaultProjects(argv: readonly string[]): string[] | undefined {
  const named = argv.some((a) => a === '--project' || a.startsWith('--project=') || /(^|\/)test\/|\.test\.ts$/.test(a));
  return named ? undefined : ['unit'];
}

export default defineConfig({
  test: {
    // `project` is the --project option's own key; the config's type leaves it out, Vitest reads it.
    ...({ project: defaultProjects(process.argv.slice(2)) } as object),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles,
          // Over the 5 s default: the slowest unit files do real work (10,000 spooled files, a 20 MB
          // work log) that a loaded 2-core machine can stretch several times over.
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      // ESLint or a language service over the tree: seconds each, more on a loaded 2-core machine.
      { test: { name: 'lint', include: ['test/lint/**/*.test.ts'], setupFiles, testTimeout: 30_000, hookTimeout: 30_000 } },
      { test: { name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: AGENTS_REAL, ...REAL_PROCESSES } },
      // A failing window test reports the page it left (its accessibility tree, errors, a screenshot).
      // The window's tests run after the others (group 1): a browser's timing on a 2-core machine
      // shared with the real agent CLIs and tmux servers is what failed them.
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...REAL_PROCESSES,
          setupFiles: [...setupFiles, 'test/support/setup/window-failure-report.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      { test: { name: 'agents-real', include: AGENTS_REAL, ...REAL_PROCESSES } },
    ],
    fileParallelism: true,
    // Three files at once on two cores, shared by every project (one pool): most integration tests
    // wait on real processes, timers and sockets rather than compute, and two at a time put the
    // suite at 20 minutes.
    maxWorkers: 3,
    sequence: { sequencer: MeasuredOrder },
    reporters: ['default', new ProjectTimes()],
  },
});
