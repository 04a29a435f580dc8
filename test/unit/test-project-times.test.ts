// The per-project times printed at the end of a run (test/project-times.ts): a line per project with
// its files, tests, failures, wall span within the run and the time its files took summed.
import { describe, expect, it } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import { projectLines, ProjectTimes } from '../project-times.js';

describe('the time per project', () => {
  it('gives each project its files, tests, wall span and summed time, names in one column', () => {
    const spans = new Map([
      ['e2e', { files: 13, tests: 80, failed: 1, firstStart: 1_000, lastEnd: 121_000, summedMs: 300_000 }],
      ['lint', { files: 1, tests: 1, failed: 0, firstStart: 600, lastEnd: 700, summedMs: 100 }],
      ['unit', { files: 100, tests: 850, failed: 0, firstStart: 500, lastEnd: 40_500, summedMs: 55_250 }],
    ]);
    expect(projectLines(spans, 500)).toEqual([
      '  e2e   13 files, 80 tests, 1 failed: 120.0 s wall (0.5 s to 120.5 s into the run), 300.0 s summed over its files',
      '  lint  1 file, 1 test: 0.1 s wall (0.1 s to 0.2 s into the run), 0.1 s summed over its files',
      '  unit  100 files, 850 tests: 40.0 s wall (0.0 s to 40.0 s into the run), 55.3 s summed over its files',
    ]);
  });
});

describe('tests that passed on a second try', () => {
  it('are named after the times, with their project and file', () => {
    const lines: string[] = [];
    const r = new ProjectTimes();
    r.onInit({ logger: { log: (l: string) => lines.push(l) } } as unknown as Vitest);
    r.onTestRunStart();
    const test = (fullName: string, flaky: boolean) => ({ fullName, result: () => ({ state: 'passed' }), diagnostic: () => ({ flaky }) });
    const module = { moduleId: '/r/test/e2e/a.test.ts', relativeModuleId: 'test/e2e/a.test.ts', project: { name: 'e2e' }, children: { allTests: () => [test('window > steady', false), test('window > shaky', true)] } };
    r.onTestModuleStart(module as unknown as TestModule);
    r.onTestModuleEnd(module as unknown as TestModule);
    r.onTestRunEnd();
    expect(lines.slice(-2)).toEqual(['\n Passed on a second try (1 test)', '  e2e test/e2e/a.test.ts > window > shaky']);
  });
});
