// A session's runtime state has one owner: main/supervisor/session/session-runtime.ts. Every other
// file reads its fields and changes them through its named operations (markLaunched, setActivity,
// recordExit…), so what can change a session is listed in one place. This fails on an assignment to a runtime's or
// an agent run's field anywhere else in main/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

const OWNER = path.join('main', 'supervisor', 'session', 'session-runtime.ts');

/** `rt.x = …`, `runtime.x += …`, `run.x = …`, `rt.x++`, `++rt.x` — not `==`/`===` comparisons. */
const ASSIGNMENT = /\b(?:rt|runtime|run)\.\w+\s*(?:[-+*/?|&]{0,2}=(?!=)|\+\+|--)|(?:\+\+|--)\s*(?:rt|runtime|run)\.\w+/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e) ? [p] : [];
  });
}

function runtimeAssignments(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (ASSIGNMENT.test(line) && !/^\s*(?:\/\/|\*)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('session runtime state', () => {
  it('is assigned only by its owner', () => {
    const offenders = sourceFiles(path.join(REPO, 'main'))
      .filter((f) => path.relative(REPO, f) !== OWNER)
      .flatMap((f) => runtimeAssignments(path.relative(REPO, f), readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('finds assignments, not reads or comparisons', () => {
    expect(runtimeAssignments('x.ts', 'rt.activity = t.to;')).toHaveLength(1);
    expect(runtimeAssignments('x.ts', '  rt.generation++;')).toHaveLength(1);
    expect(runtimeAssignments('x.ts', 'const gen = ++rt.generation;')).toHaveLength(1);
    expect(runtimeAssignments('x.ts', 'run.nudgedAt = null;')).toHaveLength(1);
    expect(runtimeAssignments('x.ts', 'runtime.restart ??= x;')).toHaveLength(1);
    expect(runtimeAssignments('x.ts', 'if (rt.run !== run) return;')).toEqual([]);
    expect(runtimeAssignments('x.ts', 'if (rt.state === "running") rt.setActivity(a);')).toEqual([]);
    expect(runtimeAssignments('x.ts', 'const r = rt.restart;')).toEqual([]);
  });
});
