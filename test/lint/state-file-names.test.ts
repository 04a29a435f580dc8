// The state files' names are defined once, in common/state-files.ts, and every product file takes
// them from there: a name written out again as a string (`'work_log.md'`, `path.join(dir,
// "session.json")`) is how two parts come to disagree about a file. Prose in comments may name them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

const OWNER = path.join('common', 'state-files.ts');
/** A string that is exactly one of the state files' names. */
const NAME_LITERAL = /['"`](?:session_state\.md|environment\.md|work_log\.md|work_log\.archive\.md|session\.json)['"`]/;
/** A whole-line comment, where a file's name is prose. */
const COMMENT = /^\s*(?:\/\/|\/?\*)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(p) ? [p] : [];
  });
}

/** `file:line: text` for each line of code that writes a state file's name out. */
function literals(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  return text.split('\n').flatMap((line, i) => (!COMMENT.test(line) && NAME_LITERAL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('the state files’ names', () => {
  it(`are written out in ${OWNER} only`, () => {
    const files = ['main', 'common', 'renderer', 'preload'].flatMap((d) => sourceFiles(path.join(REPO, d))).map((f) => path.relative(REPO, f));
    expect(files).toContain(OWNER);
    // The pattern sees the definitions it guards.
    expect(literals(OWNER).length).toBe(5);
    expect(files.filter((f) => f !== OWNER).flatMap(literals)).toEqual([]);
  });

  it('the pattern catches a name written out and leaves prose and longer names alone', () => {
    for (const line of [`path.join(dir, 'work_log.md')`, `const FILE = "session.json";`, 'read(`environment.md`)', `['session_state.md', x]`]) {
      expect(NAME_LITERAL.test(line), line).toBe(true);
    }
    for (const line of [`// reads work_log.md`, `'session.json.bak'`, `\`\${name}: environment.md is missing\``, `import { WORK_LOG } from './state-files.js'`]) {
      expect(NAME_LITERAL.test(line), line).toBe(false);
    }
  });
});
