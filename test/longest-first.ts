// Vitest's file order: the files that take longest first, so no long one starts near the end and
// holds the run up while the other workers sit idle. Vitest orders by the durations it cached from
// an earlier run, and a fresh clone (CI) has none: it then keeps the glob's alphabetical order, which
// started the 3-minute remote-ssh file among the last. The list below is the slowest files, longest
// first, as one CI-like run measured them (seconds, 3 workers on 2 cores); the rest follow in
// Vitest's own order. Only the order changes: a file missing here runs all the same.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST_FIRST = [
  // Both orders of the real Claude Code's own continuation after a limit: its 30 s tick after the
  // reset + 30–90 s is the floor of each, one after the other.
  'test/integration/agents-real-limit-claude-itself.test.ts', // 463
  'test/integration/agents-real-codex-gemini.test.ts', // 261
  'test/integration/remote-ssh.test.ts', // 209
  'test/integration/hooks-real-cli.test.ts', // 170
  'test/integration/agents-real-limit-opencode.test.ts', // ~120
  'test/integration/electron-app.test.ts', // 119
  'test/integration/agents-real-opencode.test.ts', // 115
  'test/integration/state-crash-safety.test.ts', // 102
  'test/e2e/window-header.test.ts', // 97
  'test/integration/state-concurrency.test.ts', // 93
  'test/e2e/window-large.test.ts', // 91
  'test/integration/session-worktree.test.ts', // 90
  'test/integration/agents-real-limit-claude.test.ts', // 89
  'test/integration/agents-real-claude.test.ts', // 78
  'test/e2e/window.test.ts', // 78
  'test/integration/hooks-real-opencode.test.ts', // 76
  'test/integration/agents-real-limit-gemini.test.ts', // 76
  'test/integration/agents-real-cli.test.ts', // 73
  'test/integration/agents-real-limit-codex.test.ts', // 68
  'test/e2e/window-resilience.test.ts', // 67
  'test/e2e/window-a11y.test.ts', // 66
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files off the list keep Vitest's order among themselves.
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
