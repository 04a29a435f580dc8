// A session's checkpoints and what changed since one (DESIGN.md §3, §4, §12): the list, one
// resolved from what a person typed, the files that differ between it and the work tree now (the
// work tree staged in a temporary index; a tree, never a commit or ref, only where a patch needs
// one), and each file's diff. The project is where the state dir lies
// (project-dir.ts), never what session.json says. Shared by `mori checkpoints|changes` and the
// control API. Any Node process; git runs asynchronously through safe-git.ts.
import type { ChangesListing, CheckpointInfo, FileChangeInfo, FileDiff } from '../../../common/checkpoints.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { projectDirOf } from '../../state/project-dir.js';
import { openRepoGit, type RepoGit } from '../../git/repo-git.js';
import { readSessionFile } from '../../state/session-file.js';
import { diffTreeToIndex, diffTrees, isText, patchOf, readBlobs, type FileChange } from '../../git/snapshot-diff.js';
import { addWorkTree, copyPersonsIndex, listCheckpoints, NOT_A_REPOSITORY, shortId, stageWorkTree, writeIndexTree, type CheckpointEntry } from '../../git/snapshot.js';
import type { ScanAhead } from './scan-ahead.js';

/**
 * Text larger than this is given as a patch only, not as its two sides: both sides and the patch of
 * a file must fit one control-API line (IPC_MAX_LINE_CHARS, 1,000,000 chars) with room to spare.
 */
export const MAX_SIDE_BYTES = 200_000;

export interface SessionRepo {
  git: RepoGit;
  sessionId: string;
  projectDir: string;
  /** The work tree staged already by a scan begun ahead (scan-ahead.ts), when one was given and is of this project. */
  staged?: Promise<string | null>;
}

/** Opens the session's project repository (the one a scan ahead opened, when it is of this project); the caller closes it. */
export async function openSessionRepo(stateDir: string, ahead: ScanAhead | null = null): Promise<Result<SessionRepo>> {
  const session = readSessionFile(stateDir);
  if (!session.ok) return session;
  const project = projectDirOf(stateDir);
  if (!project.ok) return project;
  const aheadGit = ahead !== null && ahead.projectDir === project.value ? await ahead.git : null;
  if (aheadGit !== null) return ok({ git: aheadGit, sessionId: session.value.id, projectDir: project.value, staged: ahead?.index });
  const opened = await openRepoGit(project.value);
  if (!opened.ok) return fail('failed', opened.timedOut ? `${project.value}: git did not answer in time` : `${project.value}: ${NOT_A_REPOSITORY}`);
  return ok({ git: opened.git, sessionId: session.value.id, projectDir: project.value });
}

/** Runs `work` on the session's repository, closing it (and any scan ahead) after; git failures become values. */
export async function withSessionRepo<T>(stateDir: string, work: (r: SessionRepo) => Promise<Result<T>>, ahead: ScanAhead | null = null): Promise<Result<T>> {
  try {
    const repo = await openSessionRepo(stateDir, ahead);
    if (!repo.ok) return repo;
    try {
      return await work(repo.value);
    } catch (err) {
      return fail('failed', `${repo.value.projectDir}: ${(err as Error).message}`);
    } finally {
      repo.value.git.close();
    }
  } finally {
    await ahead?.close();
  }
}

export function checkpointInfo(e: CheckpointEntry): CheckpointInfo {
  return { seq: e.seq, commit: e.commit, id: shortId(e.commit), tree: e.tree, at: e.at, reason: e.reason, files: e.files, logLine: e.logLine, message: e.message };
}

/** The checkpoint `spec` names: `start`, `last`, `3` or `#3`, or a commit id prefix of 4 or more digits. */
export function resolveCheckpoint(entries: readonly CheckpointEntry[], spec: string): Result<CheckpointEntry> {
  const s = spec.trim().toLowerCase();
  if (entries.length === 0) return fail('not-found', 'this session has no checkpoints yet (`mori checkpoint S` takes one)');
  if (s === 'start' || s === 'first') return ok(entries[0]!);
  if (s === 'last' || s === 'latest') return ok(entries[entries.length - 1]!);
  const seq = /^#?(\d{1,6})$/.exec(s);
  const byId = /^[0-9a-f]{4,64}$/.test(s) ? entries.filter((e) => e.commit.startsWith(s)) : [];
  if (seq && byId.length === 0) {
    const e = entries.find((x) => x.seq === Number(seq[1]));
    return e ? ok(e) : fail('not-found', `no checkpoint #${seq[1]} (kept: the first and the last ones; \`mori checkpoints S\` lists them)`);
  }
  if (byId.length === 1) return ok(byId[0]!);
  if (byId.length > 1) return fail('usage', `"${spec}" names ${byId.length} checkpoints; give more of the id`);
  return fail('not-found', `no checkpoint "${spec}" (\`mori checkpoints S\` lists them)`);
}

export async function sessionCheckpoints(stateDir: string): Promise<Result<CheckpointInfo[]>> {
  return withSessionRepo(stateDir, async ({ git, sessionId }) => ok((await listCheckpoints(git, sessionId)).map(checkpointInfo)));
}

function changeInfo(c: FileChange): FileChangeInfo {
  return { path: c.path, kind: c.kind, added: c.added, deleted: c.deleted, binary: c.binary, oldMode: c.oldMode, newMode: c.newMode };
}

interface Compared {
  since: CheckpointEntry;
  changes: FileChange[];
  /** The work tree's tree now. */
  now: string;
}

/** The checkpoint `since` names and the work tree staged in a temporary index now (no tree written yet). */
async function staged(repo: SessionRepo, since: string): Promise<Result<{ since: CheckpointEntry; index: string }>> {
  const { git, sessionId, projectDir } = repo;
  // The listing and the work tree's scan run side by side, each one git process. The scan starts
  // first: it is the longer, and starting a process holds this one up a few ms (safe-git.ts).
  let scanned: Promise<string>;
  let listed: Promise<CheckpointEntry[]>;
  if (repo.staged !== undefined) {
    // Begun ahead, it is taken as it is, unless it failed: then the work tree is scanned again.
    scanned = repo.staged.then((index) => index ?? stageWorkTree(git, projectDir));
    listed = listCheckpoints(git, sessionId);
  } else {
    const copied = copyPersonsIndex(git);
    scanned = copied.then((index) => addWorkTree(git, projectDir, index));
    listed = copied.then(() => listCheckpoints(git, sessionId));
  }
  const [entries, index] = await Promise.all([listed, scanned]);
  const from = resolveCheckpoint(entries, since);
  return from.ok ? ok({ since: from.value, index }) : from;
}

/** Checkpoint `since` against the work tree's tree now (written, for the patches and blobs that need it). */
async function compare(repo: SessionRepo, since: string): Promise<Result<Compared>> {
  const s = await staged(repo, since);
  if (!s.ok) return s;
  const now = await writeIndexTree(repo.git, s.value.index);
  return ok({ since: s.value.since, changes: await diffTrees(repo.git, s.value.since.tree, now), now });
}

function listing(since: CheckpointEntry, changes: readonly FileChange[]): ChangesListing {
  const files = changes.map(changeInfo);
  return { since: checkpointInfo(since), files, added: files.reduce((n, f) => n + (f.added ?? 0), 0), deleted: files.reduce((n, f) => n + (f.deleted ?? 0), 0) };
}

/**
 * The files that differ between checkpoint `since` and the work tree now: the checkpoint's tree
 * against the work tree staged in a temporary index, with no tree, commit or ref written.
 */
export async function sessionChanges(stateDir: string, since = 'start', ahead: ScanAhead | null = null): Promise<Result<ChangesListing>> {
  return withSessionRepo(
    stateDir,
    async (repo) => {
      const s = await staged(repo, since);
      if (!s.ok) return s;
      return ok(listing(s.value.since, await diffTreeToIndex(repo.git, s.value.since.tree, s.value.index)));
    },
    ahead,
  );
}

/** The whole unified patch between checkpoint `since` and the work tree now, and its file list. */
export async function sessionPatch(stateDir: string, since = 'start', ahead: ScanAhead | null = null): Promise<Result<{ listing: ChangesListing; patch: string }>> {
  return withSessionRepo(
    stateDir,
    async (repo) => {
      const c = await compare(repo, since);
      if (!c.ok) return c;
      return ok({ listing: listing(c.value.since, c.value.changes), patch: c.value.changes.length === 0 ? '' : await patchOf(repo.git, c.value.since.tree, c.value.now) });
    },
    ahead,
  );
}

/** Per file (all changed files, or those in `paths`): the patch and, for text, the two sides. */
export async function sessionDiff(stateDir: string, since = 'start', paths: readonly string[] = []): Promise<Result<{ since: CheckpointInfo; files: FileDiff[] }>> {
  return withSessionRepo(stateDir, async (repo) => {
    const c = await compare(repo, since);
    if (!c.ok) return c;
    const wanted = paths.length === 0 ? c.value.changes : c.value.changes.filter((f) => paths.includes(f.path));
    const blobs = await readBlobs(repo.git, wanted.flatMap((f) => [f.oldBlob, f.newBlob].filter((_, i) => (i === 0 ? f.oldMode : f.newMode) !== '160000')));
    const side = (oid: string): string | null => {
      const b = blobs.get(oid);
      return b !== undefined && b.length <= MAX_SIDE_BYTES && isText(b) ? b.toString('utf8') : null;
    };
    const files: FileDiff[] = [];
    for (const f of wanted) {
      const patch = await patchOf(repo.git, c.value.since.tree, c.value.now, [f.path]);
      files.push({ ...changeInfo(f), patch, before: f.binary ? null : side(f.oldBlob), after: f.binary ? null : side(f.newBlob) });
    }
    return ok({ since: checkpointInfo(c.value.since), files });
  });
}
