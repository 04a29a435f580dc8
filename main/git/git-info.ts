// The project's git HEAD and changed files, for checkpoints and the resume prompt's "files in
// progress". Returns nulls/empties outside a git repo or without git. Any Node process.
//
// Git runs through safe-git.ts, so nothing in the project's git config or attributes starts a program.
// The asynchronous reader (gitStateAsync) does not block the event loop and kills git's whole process
// group when it outlives its timeout. The synchronous readers are for one-shot callers (building one
// resume prompt), never for periodic or per-session work.
import { GIT_TIMEOUT_MS, gitAsync, gitSync } from './safe-git.js';

export { GIT_TIMEOUT_MS };

/** Submodules are left out: status would run git inside each, under the submodule's own config. */
const STATUS_ARGS = ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=all'];

export function gitHead(dir: string): string | null {
  const r = gitSync(dir, ['rev-parse', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : null;
}

/** Paths changed against HEAD, untracked included, as `git status --porcelain` lists them. */
export function gitChangedFiles(dir: string): string[] {
  const r = gitSync(dir, STATUS_ARGS);
  return r.code === 0 ? parsePorcelain(r.stdout) : [];
}

export interface GitState {
  head: string | null;
  changedFiles: string[];
  /** Set when git did not answer in time (and was killed); head and files are then unknown. */
  timedOut: boolean;
}

/**
 * HEAD and changed files without blocking the event loop, from one `git status --porcelain=v2
 * --branch` (one status per checkpoint, not a rev-parse too). A git that hangs is killed after `timeoutMs`.
 */
export async function gitStateAsync(dir: string, timeoutMs = GIT_TIMEOUT_MS): Promise<GitState> {
  const r = await gitAsync(dir, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', '--ignore-submodules=all'], timeoutMs);
  if (r.timedOut) return { head: null, changedFiles: [], timedOut: true };
  if (r.code !== 0) return { head: null, changedFiles: [], timedOut: false }; // not a repository, or no git
  return { ...parsePorcelainV2(r.stdout), timedOut: false };
}

/** Fields before the path in each porcelain v2 record kind (`git help status`). */
const V2_FIELDS_BEFORE_PATH: Record<string, number> = { '1': 8, '2': 9, u: 10, '?': 1 };

/** `git status --porcelain=v2 --branch -z` output → HEAD and changed paths, the state dirs left out. */
export function parsePorcelainV2(stdout: string): { head: string | null; changedFiles: string[] } {
  let head: string | null = null;
  const files: string[] = [];
  const records = stdout.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length).trim();
      head = /^[0-9a-f]{7,}$/.test(oid) ? oid : null; // "(initial)" before the first commit
      continue;
    }
    const fields = V2_FIELDS_BEFORE_PATH[record[0] ?? ''];
    if (fields === undefined) continue; // other headers, ignored files
    let at = 0;
    for (let n = 0; n < fields && at >= 0; n++) at = record.indexOf(' ', at + 1);
    if (at < 0) continue;
    const file = record.slice(at + 1);
    if (record[0] === '2') i++; // a rename's or copy's source path follows as its own record
    if (file.startsWith('.mori/')) continue;
    files.push(file);
  }
  return { head, changedFiles: files };
}

/** `git status --porcelain=v1 -z` output → paths, the state dirs left out. */
function parsePorcelain(stdout: string): string[] {
  const files: string[] = [];
  const parts = stdout.split('\0');
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
