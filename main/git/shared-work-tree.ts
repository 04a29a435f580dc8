// Work-tree reads shared by the checkpoints of one project taken together (DESIGN.md §3): sessions of
// one project suspended at once each need the work tree's tree and the files changed against HEAD,
// and one read answers them all. A checkpoint asked for at some moment may use a read that began
// after that moment (it sees the work tree at least as new), never an older one. Any Node process.
import type { RepoGit } from './repo-git.js';
import { changedAgainstHead, readWorkTree, type WorkTree } from './snapshot.js';

interface Read {
  /** The tick at which it began: checkpoints asked for before it may share it. */
  startedAt: number;
  tree: Promise<WorkTree>;
  changed: Promise<string[]> | null;
}

/** Counts requests and reads, in the order they happen (exact where a clock's resolution is not). */
let ticks = 0;
/** The latest read of each project (its repository and project dir); one small entry per project. */
const latest = new Map<string, Read>();

/** A tick to pass to sharedWorkTree: when the checkpoint was asked for. */
export function askedNow(): number {
  return ++ticks;
}

function keyOf(git: RepoGit, projectDir: string): string {
  return `${git.topLevel}\0${projectDir}`;
}

/** The work tree's HEAD and tree: a read begun after `askedAt` (by another session), or a new one. */
export function sharedWorkTree(git: RepoGit, projectDir: string, askedAt: number): Promise<WorkTree> {
  const key = keyOf(git, projectDir);
  const last = latest.get(key);
  if (last !== undefined && last.startedAt > askedAt) return last.tree;
  const read: Read = { startedAt: ++ticks, tree: readWorkTree(git, projectDir), changed: null };
  latest.set(key, read);
  return read.tree;
}

/** The files `wt` changes against its HEAD, computed once per shared read. */
export function sharedChangedFiles(git: RepoGit, projectDir: string, wt: WorkTree): Promise<string[]> {
  const read = latest.get(keyOf(git, projectDir));
  if (read === undefined) return changedAgainstHead(git, wt);
  // Only a read that produced this very tree and HEAD holds its list.
  return read.tree.then((t) => {
    if (t.tree !== wt.tree || t.head !== wt.head) return changedAgainstHead(git, wt);
    if (read.changed === null) {
      const changed = changedAgainstHead(git, wt);
      read.changed = changed;
      changed.catch(() => {
        if (read.changed === changed) read.changed = null; // a failure is not kept for the next one
      });
    }
    return read.changed;
  });
}
