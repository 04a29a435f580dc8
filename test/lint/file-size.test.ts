// No source file over 400 lines in main/, common/, renderer/, preload/: past that a file holds more
// than one concern, and a newcomer cannot see its shape. Split it by concern (see DESIGN.md §2).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

/** The most lines a .ts/.tsx file may have. */
const MAX_LINES = 400;
const FOLDERS = ['main', 'common', 'renderer', 'preload'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e) ? [p] : [];
  });
}

/** Lines as `wc -l` counts them, plus a last line without a newline. */
const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

describe('source files', () => {
  it(`have at most ${MAX_LINES} lines each`, () => {
    const offenders = FOLDERS.flatMap((f) => sourceFiles(path.join(REPO, f)))
      .map((file) => ({ file: path.relative(REPO, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(offenders).toEqual([]);
  });

  it('are counted as wc -l counts them', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });
});
