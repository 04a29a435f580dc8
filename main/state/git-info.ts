// The project's git HEAD and changed files, for checkpoints and the resume prompt's "files in
// progress". Returns nulls/empties outside a git repo or without git. Any Node process.
import { spawnSync } from 'node:child_process';

/** Git is given this long: a status on a huge repo must not stall a resume. */
const GIT_TIMEOUT_MS = 5_000;

export function gitHead(dir: string): string | null {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', timeout: GIT_TIMEOUT_MS });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Paths changed against HEAD, untracked included, as `git status --porcelain` lists them. */
export function gitChangedFiles(dir: string): string[] {
  const r = spawnSync('git', ['-C', dir, 'status', '--porcelain=v1', '-z', '--untracked-files=normal'], {
    encoding: 'utf8',
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) return [];
  const files: string[] = [];
  const parts = r.stdout.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i] ?? '';
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    const file = entry.slice(3);
    if (file.startsWith('.mori/')) continue;
    files.push(file);
    if (status[0] === 'R' || status[0] === 'C') i++; // the rename's source path follows
  }
  return files;
}
