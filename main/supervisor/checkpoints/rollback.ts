// Rollback (DESIGN.md §4): puts the project's files back as a checkpoint recorded them — all, or the
// chosen ones — after first checkpointing the state they are in now, so a rollback is undone by
// rolling back to that one. The plan (rollbackPlan) is exactly what is then done: files restored from
// the checkpoint's blobs (as stored: no smudge filter runs, Node writes them), files added since and
// not ignored deleted. It never writes outside the project, never through a symbolic link (a path
// with a symlink among its parents refuses the whole rollback when it is planned; every file is then
// written or deleted inside a directory held open from the project down, so a directory swapped for
// a link after the plan stops the rollback there, never followed: project-dir-handle.ts), never
// deletes or overwrites an ignored file, never touches a state dir or a submodule. Logs `ROLLBACK to 3f2a9c1 - 5 files` and
// leaves a notice that the agent's next prompt carries. Whether the agent is working is the caller's
// to check. The checkpoint and the notice go to session.json through the writer it is given (the
// supervisor's SessionStore in the daemon, the CLI's own outside it). Any Node process.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { RollbackAction, RollbackOutcome } from '../../../common/checkpoints.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { ProjectDirHandle, PathRefused } from '../../state/project-dir-handle.js';
import { projectDirOf } from '../../state/project-dir.js';
import { diffTrees, readBlobs, type FileChange } from '../../git/snapshot-diff.js';
import { listCheckpoints, readWorkTree, shortId, type CheckpointEntry } from '../../git/snapshot.js';
import { appendEntryAsync } from '../../state/work-log.js';
import type { RepoGit } from '../../git/repo-git.js';
import { checkpointInfo, resolveCheckpoint, withSessionRepo, type SessionRepo } from './changes.js';
import { writeCheckpoint, type CheckpointPorts } from './checkpoint.js';

export interface RollbackRequest {
  stateDir: string;
  /** The checkpoint to go back to (changes.ts resolveCheckpoint). */
  to: string;
  /** Project-relative paths; all changed files when empty. */
  files?: readonly string[];
  dryRun?: boolean;
  now?: Date;
}

interface Planned extends RollbackAction {
  change: FileChange | null;
}

/** A path git could hold that is no place to write: empty, `.`/`..` or `.git` components. */
function unsafePath(p: string): boolean {
  return p.split('/').some((c) => c === '' || c === '.' || c === '..' || c.toLowerCase() === '.git');
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** The first of `rel`'s parent directories (below `root`) that is a symbolic link, or null. */
async function symlinkParent(root: string, rel: string): Promise<string | null> {
  const parts = rel.split('/').slice(0, -1);
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    try {
      if ((await lstat(at)).isSymbolicLink()) return path.relative(root, at);
    } catch {
      return null; // missing: created as a real directory
    }
  }
  return null;
}

async function ignored(git: RepoGit, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const r = await git.run(['check-ignore', '-z', '--stdin'], { input: paths.join('\0') + '\0' });
  // 0: some are ignored, 1: none is; anything else is a failure, and then nothing is deleted.
  if (r.code === 1) return new Set();
  if (r.code !== 0) return new Set(paths);
  return new Set(r.stdout.split('\0').filter((p) => p !== ''));
}

/** What a rollback from `now` (a tree) to `target` would do to each file, in the project below `prefix`. */
async function plan(repo: SessionRepo, now: string, target: CheckpointEntry, files: readonly string[]): Promise<Result<Planned[]>> {
  const { git } = repo;
  const prefix = path.relative(git.topLevel, repo.projectDir).split(path.sep).join('/');
  const inProject = (p: string): boolean => prefix === '' || p.startsWith(`${prefix}/`);
  const toRepo = (p: string): string => (prefix === '' ? p : `${prefix}/${p}`);
  const changes = await diffTrees(git, now, target.tree);
  const wanted = files.length === 0 ? null : new Set(files.map((f) => toRepo(path.posix.normalize(f.split(path.sep).join('/')))));
  const chosen = wanted === null ? changes : changes.filter((c) => wanted.has(c.path));
  const out: Planned[] = [];
  for (const f of wanted ?? []) if (!chosen.some((c) => c.path === f)) out.push({ path: f, action: 'skip', why: 'unchanged since that checkpoint', change: null });
  const deletions = chosen.filter((c) => c.kind === 'deleted').map((c) => c.path);
  const ignoredNow = await ignored(git, deletions);
  let link: string | null;
  for (const c of chosen) {
    const skip = (why: string): void => void out.push({ path: c.path, action: 'skip', why, change: c });
    if (unsafePath(c.path)) skip('not a path Mori writes');
    else if (!inProject(c.path)) skip('outside the project');
    else if (c.oldMode === '160000' || c.newMode === '160000') skip('a submodule (never recursed into)');
    else if ((link = await symlinkParent(git.topLevel, c.path)) !== null) {
      return fail('forbidden', `${c.path}: ${link} is a symbolic link; Mori never writes through one, so nothing was rolled back`);
    } else if (c.kind === 'deleted') {
      if (ignoredNow.has(c.path)) skip('ignored');
      else out.push({ path: c.path, action: 'delete', change: c });
    } else if (c.kind === 'added' && (await exists(path.join(git.topLevel, c.path)))) skip('an ignored file is there now');
    else out.push({ path: c.path, action: 'restore', change: c });
  }
  return ok(out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
}

/** `rel`'s directory and last component. */
function split(rel: string): { dir: string; name: string } {
  const cut = rel.lastIndexOf('/');
  return cut < 0 ? { dir: '', name: rel } : { dir: rel.slice(0, cut), name: rel.slice(cut + 1) };
}

/** Writes one file as the checkpoint holds it, replacing (never following) whatever is at its path; `rel` is project-relative. */
async function restore(project: ProjectDirHandle, rel: string, c: FileChange, blob: Buffer): Promise<void> {
  const { dir, name } = split(rel);
  const held = project.dir(dir, true)!;
  try {
    if (c.newMode === '120000') held.writeLink(name, blob.toString('utf8'));
    else await held.writeFile(name, blob, c.newMode === '100755' ? 0o755 : 0o644);
  } finally {
    held.close();
  }
}

/** Removes `rel` (a file or a link, never what a link points at), then its parent dirs left empty. */
function remove(project: ProjectDirHandle, rel: string): void {
  const { dir, name } = split(rel);
  const held = project.dir(dir, false);
  if (held === null) return; // its directory is gone, and it with it
  try {
    held.remove(name);
    held.removeEmptyParents();
  } finally {
    held.close();
  }
}

/**
 * Does the plan's deletions, then its restores, each inside a project directory held open
 * (project-dir-handle.ts). A directory that became a link since the plan stops it there, with what
 * was done before kept and the undo named.
 */
async function act(projectDir: string, acting: readonly Planned[], blobs: ReadonlyMap<string, Buffer>, prefix: string, undo: string): Promise<Result<true>> {
  const project = ProjectDirHandle.open(projectDir);
  const stopped = (why: string): Result<true> => fail('forbidden', `${why}, so the rollback stopped there: the files before it were rolled back, the rest were not (undo: roll back to ${undo})`);
  try {
    for (const p of acting) if (p.action === 'delete') remove(project, shown(p, prefix).path);
    for (const p of acting) {
      if (p.action !== 'restore' || p.change === null) continue;
      const blob = blobs.get(p.change.newBlob);
      if (blob === undefined) return fail('failed', `${p.path}: its contents are missing from the repository; the rest may be rolled back (undo: roll back to ${undo})`);
      await restore(project, shown(p, prefix).path, p.change, blob);
    }
    return ok(true);
  } catch (err) {
    if (err instanceof PathRefused) return stopped(`${err.message} (it changed after the rollback was planned)`);
    return fail('failed', `${(err as Error).message}; the rollback stopped there: the files before it were rolled back, the rest were not (undo: roll back to ${undo})`);
  } finally {
    project.close();
  }
}

function shown(p: Planned, prefix: string): RollbackAction {
  const rel = prefix !== '' && p.path.startsWith(`${prefix}/`) ? p.path.slice(prefix.length + 1) : p.path;
  return p.why !== undefined ? { path: rel, action: p.action, why: p.why } : { path: rel, action: p.action };
}

/** Rolls the session's project back to a checkpoint (or, with dryRun, says exactly what that would do). */
export async function rollbackSession(req: RollbackRequest, ports: CheckpointPorts): Promise<Result<RollbackOutcome>> {
  const now = req.now ?? new Date();
  let beforeSeq: number | null = null;
  if (!req.dryRun) {
    const project = projectDirOf(req.stateDir);
    if (!project.ok) return project;
    const cp = await writeCheckpoint(req.stateDir, project.value, ports, now, { reason: 'before rollback' });
    if (!cp.ok) return cp;
    if (cp.value.checkpoint.snapshot === null) return fail('failed', 'no checkpoints: not a git repository');
    beforeSeq = cp.value.checkpoint.snapshot.seq;
  }
  return withSessionRepo(req.stateDir, async (repo) => {
    const entries = await listCheckpoints(repo.git, repo.sessionId);
    const target = resolveCheckpoint(entries, req.to);
    if (!target.ok) return target;
    const before = beforeSeq === null ? null : (entries.find((e) => e.seq === beforeSeq) ?? null);
    const nowTree = before !== null ? before.tree : (await readWorkTree(repo.git, repo.projectDir)).tree;
    const planned = await plan(repo, nowTree, target.value, req.files ?? []);
    if (!planned.ok) return planned;
    const prefix = path.relative(repo.git.topLevel, repo.projectDir).split(path.sep).join('/');
    const outcome = (): RollbackOutcome => ({ to: checkpointInfo(target.value), before: before !== null ? checkpointInfo(before) : null, actions: planned.value.map((p) => shown(p, prefix)), dryRun: req.dryRun === true });
    if (req.dryRun) return ok(outcome());
    const acting = planned.value.filter((p) => p.action !== 'skip');
    const blobs = await readBlobs(repo.git, acting.flatMap((p) => (p.action === 'restore' && p.change ? [p.change.newBlob] : [])));
    const acted = await act(repo.projectDir, acting, blobs, prefix, before ? shortId(before.commit) : 'the previous checkpoint');
    if (!acted.ok) return acted;
    const to = shortId(target.value.commit);
    const files = acting.map((p) => shown(p, prefix).path);
    await appendEntryAsync(req.stateDir, [`ROLLBACK to ${to} - ${files.length} file${files.length === 1 ? '' : 's'}${before ? ` (undo: roll back to ${shortId(before.commit)})` : ''}`], now);
    const noted = await ports.write(req.stateDir, (s) => ({ ...s, rollbackNotice: { at: now.toISOString(), checkpoint: to, files } }));
    if (!noted.ok) return noted;
    return ok(outcome());
  });
}
