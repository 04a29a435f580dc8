// Keeps `.mori/` out of the project's git status by adding it to .git/info/exclude — a local file that
// is never committed — and never to a tracked file such as .gitignore. Any Node process.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gitSync } from './safe-git.js';

export const EXCLUDE_PATTERN = '.mori/';

/** The repository's common git dir (shared by worktrees), or null when `dir` is not in a git repo. */
export function gitCommonDir(dir: string): string | null {
  const r = gitSync(dir, ['rev-parse', '--git-common-dir']);
  if (r.code !== 0 || !r.stdout) return null;
  return path.resolve(dir, r.stdout.trim());
}

/** Adds `.mori/` to info/exclude when missing. Returns the file changed, or null when nothing was done. */
export function excludeStateDirs(projectDir: string): string | null {
  const gitDir = gitCommonDir(projectDir);
  if (gitDir === null) return null;
  const file = path.join(gitDir, 'info', 'exclude');
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
  }
  const present = current.split(/\r?\n/).some((l) => ['.mori', '.mori/', '/.mori', '/.mori/'].includes(l.trim()));
  if (present) return null;
  const lead = current.length > 0 && !current.endsWith('\n') ? '\n' : '';
  appendFileSync(file, `${lead}# Mori's session state dirs\n${EXCLUDE_PATTERN}\n`);
  return file;
}
