// The benchmarks import nothing from test/ and the tests nothing from bench/: what both run (the
// fake agent, the sshd harness, the built CLI's runner, `until`) lives in testkit/, which imports
// neither. Read as text, every relative import, `new URL(…, import.meta.url)` and path string.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    if (e === 'results' || e === 'node_modules') return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|mts|mjs|js)$/.test(e) ? [p] : [];
  });
}

/** `file:line: literal` for every relative string literal in `dir` that resolves under one of `banned`. */
export function reachesInto(dir: string, banned: string[]): string[] {
  const hits: string[] = [];
  for (const f of files(dir)) {
    readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/['"`](\.\.?\/[^'"`$]*)/g)) {
        const target = path.relative(REPO, path.resolve(path.dirname(f), m[1] ?? ''));
        if (banned.some((b) => target === b || target.startsWith(b + path.sep))) hits.push(`${path.relative(REPO, f)}:${i + 1}: ${m[1]}`);
      }
    });
  }
  return hits;
}

describe('bench/, test/ and testkit/', () => {
  it('bench/ reaches nothing in test/', () => {
    expect(reachesInto(path.join(REPO, 'bench'), ['test'])).toEqual([]);
  });
  it('test/ reaches nothing in bench/', () => {
    expect(reachesInto(path.join(REPO, 'test'), ['bench'])).toEqual([]);
  });
  it('testkit/ reaches neither', () => {
    expect(reachesInto(path.join(REPO, 'testkit'), ['test', 'bench'])).toEqual([]);
  });
});
