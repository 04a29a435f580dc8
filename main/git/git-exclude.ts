// Keeps `.mori/` out of the project's git status by adding it to .git/info/exclude — a local file that
// is never committed — and never to a tracked file such as .gitignore. The file is in the project's
// git dir, which an agent can write: it is read and appended only as a regular file with one link,
// never through a symlink and never blocking on a FIFO. Any Node process.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { gitSync } from './safe-git.js';
import { APPEND_FLAGS, assertPlainOpenedFile, readRegularFileSync, refusalFor, UnsafeStateFile } from '../state/state-file-guard.js';

export const EXCLUDE_PATTERN = '.mori/';

/** The repository's common git dir (shared by worktrees), or null when `dir` is not in a git repo. */
export function gitCommonDir(dir: string): string | null {
  const r = gitSync(dir, ['rev-parse', '--git-common-dir']);
  if (r.code !== 0 || !r.stdout) return null;
  return path.resolve(dir, r.stdout.trim());
}

/** What excludeStateDirs did: the file it changed, or why it left an unsafe file alone. */
export type ExcludeOutcome = { changed: string | null; refused: string | null };

/** Adds `.mori/` to info/exclude when missing. A symlink, FIFO or hard-linked file there is left alone. */
export function excludeStateDirs(projectDir: string): ExcludeOutcome {
  const gitDir = gitCommonDir(projectDir);
  if (gitDir === null) return { changed: null, refused: null };
  const file = path.join(gitDir, 'info', 'exclude');
  try {
    let current = '';
    try {
      current = readRegularFileSync(file, false).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(path.dirname(file), { recursive: true });
    }
    const present = current.split(/\r?\n/).some((l) => ['.mori', '.mori/', '/.mori', '/.mori/'].includes(l.trim()));
    if (present) return { changed: null, refused: null };
    const lead = current.length > 0 && !current.endsWith('\n') ? '\n' : '';
    appendPlain(file, `${lead}# Mori's session state dirs\n${EXCLUDE_PATTERN}\n`);
    return { changed: file, refused: null };
  } catch (err) {
    if (err instanceof UnsafeStateFile) return { changed: null, refused: `${err.message}; .mori/ was not added to it` };
    throw err;
  }
}

function appendPlain(file: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(file, APPEND_FLAGS, 0o644);
  } catch (err) {
    throw refusalFor(file, err);
  }
  try {
    assertPlainOpenedFile(file, fd, true);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
