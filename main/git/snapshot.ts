// Checkpoint snapshots (DESIGN.md §3): the whole work tree as git sees it — tracked files and
// untracked files that are not ignored, submodules as their gitlinks — recorded as a commit under
// `refs/mori/<session id>/cp/<seq>`, one ref per checkpoint. The tree is built in a temporary index
// (a copy of the person's, so only files whose stat data changed are hashed) in a private git dir
// (safe-git.ts), so HEAD, the person's index, branches, stash and reflogs are never touched and
// `git status` shows nothing new. A snapshot's commit has HEAD as its parent (none before the first
// commit), never the previous snapshot: a dropped ref leaves its commit to `git gc`. The session's
// first checkpoint and the last CHECKPOINTS_KEPT are kept. Any Node process; never blocks the loop.
import { realpathSync } from 'node:fs';
import { open, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { SnapshotRef } from '../../common/session.js';
import { isAgentFileError, withAgentFile } from '../os/agent-file.js';
import type { RepoGit } from './repo-git.js';
import type { GitRun } from './safe-git.js';

/** Checkpoints kept besides the first: at one per 5 minutes of change, about 16 hours of work. */
export const CHECKPOINTS_KEPT = 200;
/**
 * The project's state dirs are never part of a snapshot: a rollback must not rewrite the session's
 * own files. A literal prefix (not a glob over every path, which doubled the time of an add on a
 * 10,000-file tree); state dirs of other projects deeper in the repository are left out of listings
 * and rollbacks by snapshot-diff.ts instead.
 */
export function stateDirsExcluded(git: RepoGit, projectDir: string): string {
  let real = projectDir;
  try {
    real = realpathSync(projectDir);
  } catch {
    // gone: git opened it a moment ago, so the relative path below is still right or git fails first
  }
  const rel = path.relative(git.topLevel, real).split(path.sep).join('/');
  return `:(exclude,literal)${rel === '' ? '' : `${rel}/`}.mori`;
}
export const NOT_A_REPOSITORY = 'no checkpoints: not a git repository';

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The refs of one session's checkpoints; the id is a UUID (session.json), checked again here. */
export function checkpointRefPrefix(sessionId: string): string {
  if (!SESSION_ID.test(sessionId)) throw new Error(`"${sessionId}" is not a session id`);
  return `refs/mori/${sessionId.toLowerCase()}/cp/`;
}

export function checkpointRef(sessionId: string, seq: number): string {
  return `${checkpointRefPrefix(sessionId)}${seq}`;
}

export class GitFailed extends Error {
  readonly timedOut: boolean;
  constructor(what: string, run: GitRun) {
    super(run.timedOut ? `git ${what} did not answer in time (killed)` : `git ${what} failed${run.code === null ? ' (not started or output too big)' : ` (exit ${run.code})`}`);
    this.timedOut = run.timedOut;
  }
}

async function must(git: RepoGit, what: string, args: readonly string[], opts?: Parameters<RepoGit['run']>[1]): Promise<string> {
  const r = await git.run(args, opts);
  if (r.code !== 0) throw new GitFailed(what, r);
  return r.stdout;
}

export interface WorkTree {
  /** HEAD's commit, null before the first commit. */
  head: string | null;
  /** The tree of the work tree now. */
  tree: string;
}

/** HEAD's commit, null before the first commit. */
export async function readHead(git: RepoGit): Promise<string | null> {
  const rev = await git.run(['rev-parse', '--verify', '-q', 'HEAD']);
  if (rev.code !== 0 && rev.code !== 1) throw new GitFailed('rev-parse', rev);
  return rev.code === 0 ? rev.stdout.trim() : null; // 1: no commit yet
}

/**
 * The work tree as git sees it in a temporary index (returned: a file in the private dir): a copy of
 * the person's, then add -A. One scan of the work tree; the changed files' blobs are written, no tree.
 */
export async function stageWorkTree(git: RepoGit, projectDir: string): Promise<string> {
  return addWorkTree(git, projectDir, await copyPersonsIndex(git));
}

/**
 * The person's index is copied when it is bigger than this: about a million paths (an entry is ~100
 * bytes), far beyond any work tree a checkpoint is taken of; a bigger file is the agent's, not git's.
 */
const INDEX_MAX_BYTES = 512 * 1024 * 1024;
/** The copy is made in pieces of this size, so a big index never sits whole in memory. */
const INDEX_COPY_CHUNK = 1024 * 1024;

/**
 * A copy of the person's index in the private dir (its path; no file before the first commit), as
 * stageWorkTree starts. The index lies in the agent's project: it is opened without following a
 * link or waiting on a FIFO and copied only as the regular file that was opened (os/agent-file.ts).
 */
export async function copyPersonsIndex(git: RepoGit): Promise<string> {
  const index = path.join(git.scratch, 'snapshot-index');
  const source = path.join(git.gitDir, 'index');
  const copied = await withAgentFile(source, async (f) => {
    if (f.info.size > INDEX_MAX_BYTES) return `${source}: ${f.info.size} bytes, more than an index holds; Mori does not read it`;
    const out = await open(index, 'w', 0o600);
    try {
      for (let at = 0; at < f.info.size; at += INDEX_COPY_CHUNK) await out.write(await f.read(at, INDEX_COPY_CHUNK));
    } finally {
      await out.close();
    }
    // Git tells a file changed within the index's own second only by comparing the index file's
    // mtime ("racily clean" entries): the copy keeps the original's, or such a change goes unseen.
    const mtime = new Date(f.info.mtimeMs);
    await utimes(index, mtime, mtime);
    return null;
  });
  if (typeof copied === 'string') throw new Error(copied);
  if (isAgentFileError(copied) && copied.problem !== 'absent') throw new Error(copied.message); // absent: a repository without commits
  return index;
}

/** The work tree added to the index copy `index` (copyPersonsIndex), as stageWorkTree ends; `started` is called once git runs. */
export async function addWorkTree(git: RepoGit, projectDir: string, index: string, started?: () => void): Promise<string> {
  // Exit 1: a file could not be read (left as it was) or the state dir is ignored already (named by
  // the exclusion); the rest is added either way. 128 is a failure.
  const added = await git.run(['add', '-A', '--ignore-errors', '--', '.', stateDirsExcluded(git, projectDir)], { index, started });
  if (added.code !== 0 && added.code !== 1) throw new GitFailed('add', added);
  return index;
}

/**
 * HEAD and the work tree's tree: stageWorkTree, then write-tree. What changed against HEAD is a
 * tree-to-tree diff after (changedAgainstHead).
 */
export async function readWorkTree(git: RepoGit, projectDir: string): Promise<WorkTree> {
  // One git at a time: a checkpoint holds one slot of checkpointLimiter (checkpoint.ts).
  const head = await readHead(git);
  return { head, tree: await writeIndexTree(git, await stageWorkTree(git, projectDir)) };
}

/** The tree of a temporary index (written as objects). */
export async function writeIndexTree(git: RepoGit, index: string): Promise<string> {
  return (await must(git, 'write-tree', ['write-tree'], { index })).trim();
}

/** Paths that differ between HEAD and `tree` (every path of it before the first commit), state dirs left out. */
export async function changedAgainstHead(git: RepoGit, wt: WorkTree): Promise<string[]> {
  const out = wt.head === null ? await must(git, 'ls-tree', ['ls-tree', '-r', '-z', '--name-only', wt.tree]) : await must(git, 'diff-tree', ['diff-tree', '-r', '-z', '--name-only', wt.head, wt.tree]);
  return out.split('\0').filter((f) => f !== '' && f !== '.mori' && !f.startsWith('.mori/') && !f.includes('/.mori/'));
}

/** One checkpoint as its commit records it. */
export interface CheckpointEntry extends SnapshotRef {
  at: string;
  /** periodic, interrupted, suspend, resume, on demand, before a rollback… */
  reason: string;
  /** Files changed against HEAD when it was taken. */
  files: number;
  /** The work-log line logged with it. */
  logLine: string;
  message: string;
}

export interface CheckpointMeta {
  at: string;
  reason: string;
  files: number;
  /** What the work-log line says after `CHECKPOINT <id> - ` (the commit cannot hold its own id). */
  summary: string;
  message?: string | undefined;
}

/** The id a checkpoint is shown by: as many hex digits as `git log --oneline` shows in a small repository. */
export function shortId(commit: string): string {
  return commit.slice(0, 7);
}

/** `CHECKPOINT 3f2a9c1 - 4 files changed: a.ts, b.ts`. */
export function checkpointLine(commit: string, summary: string): string {
  return `CHECKPOINT ${shortId(commit)} - ${summary}`;
}

/** One line, no control characters: what a commit message field may hold. */
function field(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 500);
}

function commitMessage(seq: number, m: CheckpointMeta): string {
  return [`mori checkpoint ${seq}`, '', `At: ${field(m.at)}`, `Reason: ${field(m.reason)}`, `Files: ${m.files}`, `Log: ${field(m.summary)}`, ...(m.message ? [`Message: ${field(m.message)}`] : []), ''].join('\n');
}

function parseEntry(ref: string, commit: string, tree: string, contents: string): CheckpointEntry | null {
  const seq = Number(ref.slice(ref.lastIndexOf('/') + 1));
  if (!Number.isInteger(seq) || seq < 1) return null;
  const fields = new Map<string, string>();
  for (const line of contents.split('\n')) {
    const m = /^([A-Z][a-z]+): (.*)$/.exec(line);
    if (m) fields.set(m[1] ?? '', m[2] ?? '');
  }
  return { seq, commit, tree, at: fields.get('At') ?? '', reason: fields.get('Reason') ?? '', files: Number(fields.get('Files') ?? 0), logLine: checkpointLine(commit, fields.get('Log') ?? ''), message: fields.get('Message') ?? '' };
}

/** The session's checkpoints, oldest first. */
export async function listCheckpoints(git: RepoGit, sessionId: string): Promise<CheckpointEntry[]> {
  const out = await must(git, 'for-each-ref', ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)%00%(contents)%00', checkpointRefPrefix(sessionId)]);
  const entries: CheckpointEntry[] = [];
  for (const record of out.split('\0\n')) {
    const [ref, commit, tree, contents] = record.split('\0');
    if (!ref || !commit || !tree || contents === undefined) continue;
    const e = parseEntry(ref, commit, tree, contents);
    if (e) entries.push(e);
  }
  return entries.sort((a, b) => a.seq - b.seq);
}

/** The refs to drop so that the first and the last `keep` remain. */
export function refsToDrop(seqs: readonly number[], keep: number): number[] {
  const sorted = [...seqs].sort((a, b) => a - b);
  return sorted.length <= keep + 1 ? [] : sorted.slice(1, sorted.length - keep);
}

export interface Recorded {
  snapshot: SnapshotRef;
  /** False: the tree was the previous checkpoint's, and nothing was written. */
  created: boolean;
}

/**
 * Records `tree` as the session's next checkpoint unless it is the previous one's. `previous` is the
 * last snapshot session.json knows (the fast path: no ref listing); when its seq is taken already
 * (another process checkpointed) the refs are listed and the next free one used.
 */
export async function recordCheckpoint(git: RepoGit, sessionId: string, wt: WorkTree, previous: SnapshotRef | null, meta: CheckpointMeta, keep = CHECKPOINTS_KEPT): Promise<Recorded> {
  if (previous !== null && previous.tree === wt.tree) return { snapshot: previous, created: false };
  let seq = (previous?.seq ?? 0) + 1;
  let listed: CheckpointEntry[] | null = previous === null ? await listCheckpoints(git, sessionId) : null;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (listed !== null) {
      const last = listed[listed.length - 1];
      if (last !== undefined && last.tree === wt.tree) return { snapshot: { commit: last.commit, tree: last.tree, seq: last.seq }, created: false };
      seq = (last?.seq ?? 0) + 1;
    }
    const commit = await createCommit(git, wt, seq, meta);
    const drops = listed !== null ? refsToDrop([...listed.map((e) => e.seq), seq], keep) : seq - keep > 1 ? [seq - keep] : [];
    const r = await git.updateMoriRefs([{ op: 'create', ref: checkpointRef(sessionId, seq), oid: commit }, ...drops.map((s) => ({ op: 'delete' as const, ref: checkpointRef(sessionId, s) }))]);
    if (r.code === 0) return { snapshot: { commit, tree: wt.tree, seq }, created: true };
    if (r.timedOut || attempt === 1) throw new GitFailed('update-ref', r);
    listed = await listCheckpoints(git, sessionId); // the seq was taken: start from what is there
  }
  throw new Error('unreachable');
}

/** The commit of a checkpoint: the work tree's tree, HEAD as parent, the checkpoint's facts as message. */
async function createCommit(git: RepoGit, wt: WorkTree, seq: number, m: CheckpointMeta): Promise<string> {
  const date = `@${Math.floor(Date.parse(m.at) / 1000)} +0000`;
  const env = { GIT_AUTHOR_NAME: 'Mori', GIT_AUTHOR_EMAIL: 'mori@localhost', GIT_COMMITTER_NAME: 'Mori', GIT_COMMITTER_EMAIL: 'mori@localhost', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  const args = ['commit-tree', wt.tree, ...(wt.head !== null ? ['-p', wt.head] : [])];
  return (await must(git, 'commit-tree', args, { env, input: commitMessage(seq, m) })).trim();
}
