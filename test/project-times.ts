// A Vitest reporter that ends a run with a line per project (unit, integration, e2e, agents-real):
// its files and tests, its wall time (its first file's start to its last file's end; the projects
// share the workers, so their spans overlap) and the time its files took summed. Printed after the
// default reporter's summary, with the tests that passed only on a second try (CI retries the
// projects that run real processes once; each such test is named, never hidden). Runs in Vitest's
// main process.
import { performance } from 'node:perf_hooks';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

interface Span {
  files: number;
  tests: number;
  failed: number;
  firstStart: number;
  lastEnd: number;
  summedMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** One line per project, in the order given; the names padded to one column. */
export function projectLines(spans: ReadonlyMap<string, Span>, runStart: number): string[] {
  const width = Math.max(...[...spans.keys()].map((n) => n.length));
  return [...spans].map(([name, s]) => {
    const failed = s.failed > 0 ? `, ${s.failed} failed` : '';
    const span = `${seconds(s.lastEnd - s.firstStart)} wall (${seconds(s.firstStart - runStart)} to ${seconds(s.lastEnd - runStart)} into the run)`;
    return `  ${name.padEnd(width)}  ${count(s.files, 'file')}, ${count(s.tests, 'test')}${failed}: ${span}, ${seconds(s.summedMs)} summed over its files`;
  });
}

export class ProjectTimes implements Reporter {
  private vitest: Vitest | null = null;
  private runStart = performance.now();
  private readonly started = new Map<string, number>();
  private readonly spans = new Map<string, Span>();
  /** Tests that failed, then passed when tried again: "project file > name". */
  private readonly flaky: string[] = [];

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(): void {
    this.runStart = performance.now();
    this.started.clear();
    this.spans.clear();
    this.flaky.length = 0;
  }

  onTestModuleStart(m: TestModule): void {
    this.started.set(m.moduleId, performance.now());
  }

  onTestModuleEnd(m: TestModule): void {
    const end = performance.now();
    const start = this.started.get(m.moduleId) ?? end;
    const name = m.project.name || 'tests';
    const s = this.spans.get(name) ?? { files: 0, tests: 0, failed: 0, firstStart: start, lastEnd: end, summedMs: 0 };
    s.files++;
    for (const t of m.children.allTests()) {
      s.tests++;
      if (t.result().state === 'failed') s.failed++;
      if (t.diagnostic()?.flaky) this.flaky.push(`${name} ${m.relativeModuleId} > ${t.fullName}`);
    }
    s.firstStart = Math.min(s.firstStart, start);
    s.lastEnd = Math.max(s.lastEnd, end);
    s.summedMs += end - start;
    this.spans.set(name, s);
  }

  onTestRunEnd(): void {
    if (this.spans.size === 0) return;
    const ordered = new Map([...this.spans].sort((a, b) => a[0].localeCompare(b[0])));
    const log = (line: string): void => (this.vitest ? this.vitest.logger.log(line) : console.log(line));
    log('\n Time per project');
    for (const line of projectLines(ordered, this.runStart)) log(line);
    if (this.flaky.length > 0) {
      log(`\n Passed on a second try (${count(this.flaky.length, 'test')})`);
      for (const f of this.flaky) log(`  ${f}`);
    }
  }
}
