// A session's own git worktree (DESIGN.md §3, §9): `mori init --worktree` makes one of the project's
// repository on a new branch (default `mori/<session>`) at
// `<Mori home>/worktrees/<repo basename>-<8 hex of sha256 of the repo's real path>/<session>`, and
// `mori rm --remove-worktree` (or `session.remove` with removeWorktree) removes it (never the branch), refusing uncommitted changes and commits
// no other branch holds unless forced. The repository's config and attributes are the agent's to
// write, so the files are never checked out with them: `worktree add --no-checkout`, then `read-tree`
// on a private git dir (git-policy.ts). Every run goes through safe-git.ts. Any Node process.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { sessionNameProblem, type SessionRecord, type SessionWorktree } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { parseRepoPaths, REPO_PATHS_ARGS } from './private-git-dir.js';
import { projectDirOf } from '../state/project-dir.js';
import { gitAsync } from './safe-git.js';
import { sessionFilePath } from '../state/session-file.js';
import { STATE_ROOT } from '../state/state-dir.js';

/** Filling a worktree writes every file of the tree: a big repository needs far more than a status. */
const CHECKOUT_TIMEOUT_MS = 120_000;

/** `<home>/worktrees/<repo basename>-<8 hex>/<session>`: one folder per repository, never inside it. */
export function worktreePathFor(home: string, repoRealPath: string, name: string): string {
  const hash = createHash('sha256').update(repoRealPath).digest('hex').slice(0, 8);
  return path.join(home, 'worktrees', `${path.basename(repoRealPath)}-${hash}`, name);
}

/** The home's real path (a symlinked home still gives the paths recorded), or itself while absent. */
function realHome(home: string): string {
  try {
    return realpathSync(home);
  } catch {
    return path.resolve(home);
  }
}

/** null when `branch` may name the new branch; else why not. */
async function branchProblem(dir: string, branch: string): Promise<string | null> {
  if (branch.startsWith('-')) return `branch "${branch}": a name starting with "-" is refused`;
  if (branch.includes('@{') || branch.length > 200) return `branch "${branch}": not a valid branch name`;
  const check = await gitAsync(dir, ['check-ref-format', '--branch', branch]);
  if (check.code !== 0 || check.stdout.trim() !== branch) return `branch "${branch}": not a valid branch name (git check-ref-format --branch refuses it)`;
  const exists = await gitAsync(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (exists.code === 0) return `branch "${branch}" exists already; name a new one`;
  return null;
}

/** Whether anything (even a dangling symlink) is at `p`. */
function occupied(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Makes the worktree of `dir`'s repository for session `name` on a new branch, its files checked out without filters. */
export async function createSessionWorktree(dir: string, name: string, branchOpt: string | undefined, home: string): Promise<Result<SessionWorktree>> {
  const nameProblem = sessionNameProblem(name);
  if (nameProblem !== null) return fail('usage', `"${name}" is not a valid session name: ${nameProblem}`);
  const paths = await gitAsync(dir, REPO_PATHS_ARGS);
  const repo = paths.code === 0 ? parseRepoPaths(paths.stdout) : null;
  if (repo === null) return fail('usage', `${dir}: not in a git repository; a session's own worktree needs one`);
  const repoReal = realpathSync(repo.topLevel);
  const branch = branchOpt ?? `mori/${name}`;
  const problem = await branchProblem(repoReal, branch);
  if (problem !== null) return fail('usage', problem);
  const head = await gitAsync(repoReal, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head.code !== 0) return fail('usage', `${repoReal}: the repository has no commit yet; a worktree starts from HEAD`);
  const wt = worktreePathFor(realHome(home), repoReal, name);
  if (occupied(wt)) return fail('conflict', `${wt}: exists already; remove it or choose another session name`);
  try {
    mkdirSync(path.dirname(wt), { recursive: true, mode: 0o755 });
  } catch (err) {
    return fail('failed', `${path.dirname(wt)}: cannot be created (${(err as Error).message})`);
  }
  const add = await gitAsync(repoReal, ['worktree', 'add', '--no-checkout', '-b', branch, '--', wt, head.stdout.trim()]);
  if (add.code !== 0) return fail('failed', `${wt}: the worktree could not be added${add.timedOut ? ' (git timed out)' : ''}`);
  const fill = await gitAsync(wt, ['read-tree', '-u', '--reset', 'HEAD'], CHECKOUT_TIMEOUT_MS);
  if (fill.code !== 0) return fail('failed', `${wt}: the worktree was made on branch ${branch}, but its files could not be checked out${fill.timedOut ? ' (timed out)' : ''}`);
  return ok({ path: realpathSync(wt), branch, repo: repoReal });
}

/** Why the worktree may not be removed without --force (uncommitted changes, commits on no other branch); null when it may. */
export async function worktreeRemovalProblem(wt: SessionWorktree): Promise<Result<string | null>> {
  if (!occupied(wt.path)) return ok(null);
  const status = await gitAsync(wt.path, ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=all']);
  if (status.code !== 0) return fail('failed', `${wt.path}: git status failed${status.timedOut ? ' (timed out)' : ''}; pass --force to remove it anyway`);
  const changed = status.stdout
    .split('\0')
    .filter((e) => e.length > 3)
    .map((e) => e.slice(3))
    .filter((p) => p !== `${STATE_ROOT}/` && !p.startsWith(`${STATE_ROOT}/`));
  if (changed.length > 0) return ok(`${wt.path} has uncommitted changes (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''})`);
  const head = await gitAsync(wt.path, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head.code !== 0) return fail('failed', `${wt.path}: its HEAD cannot be read; pass --force to remove it anyway`);
  const holders = await gitAsync(wt.repo, ['for-each-ref', '--format=%(refname)', '--contains', head.stdout.trim(), 'refs/heads/']);
  if (holders.code !== 0) return fail('failed', `${wt.repo}: git for-each-ref failed; pass --force to remove the worktree anyway`);
  const others = holders.stdout.split('\n').filter((r) => r !== '' && r !== `refs/heads/${wt.branch}`);
  if (others.length === 0) return ok(`branch ${wt.branch} has commits no other branch holds (merge them first)`);
  return ok(null);
}

/** `wt` when it may be removed: unless `force`, refused (`conflict`, naming the problem) while worktreeRemovalProblem finds one. */
export async function checkedForRemoval(wt: SessionWorktree, force: boolean): Promise<Result<SessionWorktree>> {
  if (force) return ok(wt);
  const problem = await worktreeRemovalProblem(wt);
  if (!problem.ok) return problem;
  return problem.value === null ? ok(wt) : fail('conflict', problem.value);
}

/** Removes the worktree (its files and git's record of it); the branch stays. */
export async function removeSessionWorktree(wt: SessionWorktree): Promise<Result<true>> {
  const r = await gitAsync(wt.repo, ['worktree', 'remove', '--force', '--', wt.path], CHECKOUT_TIMEOUT_MS);
  if (r.code !== 0) return fail('failed', `${wt.path}: the worktree could not be removed${r.timedOut ? ' (git timed out)' : ''}`);
  return ok(true);
}

/**
 * The worktree session.json names, checked against what the agent cannot write: it must be the
 * session's project dir (from the registry's state dir) and sit in the Mori home's folder for the
 * repository it names. null when the session has none.
 */
export function sessionWorktreeOf(stateDir: string, session: SessionRecord, home: string): Result<SessionWorktree | null> {
  const wt = session.worktree;
  if (wt === undefined) return ok(null);
  const project = projectDirOf(stateDir);
  if (!project.ok) return project;
  let projectReal: string;
  try {
    projectReal = realpathSync(project.value);
  } catch {
    return fail('not-found', `${project.value}: no such directory`);
  }
  const expectedFolder = path.dirname(worktreePathFor(realHome(home), wt.repo, session.name));
  if (wt.path !== projectReal || path.dirname(wt.path) !== expectedFolder) {
    return fail('unreadable', `${sessionFilePath(stateDir)}: its worktree (${wt.path}) is not the session's own (expected ${projectReal} in ${expectedFolder}); refusing to remove it`);
  }
  return ok(wt);
}
