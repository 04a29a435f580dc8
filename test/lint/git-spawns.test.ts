// Git runs only through main/git/safe-git.ts, which keeps the project's git config and attributes
// from starting programs. Any other file of main/ naming the git program — `spawn('git', …)`,
// `execFile("git")`, a shell line `git status …` — is caught here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

const SAFE_GIT = path.join('main', 'git', 'safe-git.ts');
/** A string that is the git program, or starts a command line with it: 'git', "git status", `git -C`. */
const GIT_PROGRAM = /['"`](?:[^'"`\s]*\/)?git(?:['"`]|\s+-{0,2}[a-zA-Z])/;

/** A whole-line comment, where `git status` is prose. */
const COMMENT = /^\s*(?:\/\/|\/?\*)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|tsx|mjs|js)$/.test(p) ? [p] : [];
  });
}

/** `file:line: text` for each line naming the git program. */
function gitMentions(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  return text.split('\n').flatMap((line, i) => (!COMMENT.test(line) && GIT_PROGRAM.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('git', () => {
  it('is spawned by main/git/safe-git.ts only', () => {
    const files = sourceFiles(path.join(REPO, 'main')).map((f) => path.relative(REPO, f));
    expect(files).toContain(SAFE_GIT);
    // The pattern sees the spawns it guards.
    expect(gitMentions(SAFE_GIT).length).toBeGreaterThan(0);
    expect(files.filter((f) => f !== SAFE_GIT).flatMap(gitMentions)).toEqual([]);
  });

  it('the pattern catches the ways a file could start git', () => {
    for (const line of [`spawn('git', ['status'])`, `spawnSync("git", args)`, 'execSync(`git status --porcelain`)', `execFile('/usr/bin/git', a)`, `exec('git -C x status')`]) {
      expect(GIT_PROGRAM.test(line), line).toBe(true);
    }
    for (const line of [`// reads .git/config`, `import { gitSync } from './safe-git.js'`, `'.gitattributes'`, `'git-info'`]) {
      expect(GIT_PROGRAM.test(line), line).toBe(false);
    }
  });
});
