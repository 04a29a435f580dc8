// One repository opened for a sequence of git runs on one private git dir (DESIGN.md §3, §11): the
// checkpoint snapshots, their listing, diffs and rollbacks run here, with a scratch dir for a
// temporary index, and Mori's own refs (refs/mori/ only) written in one transaction on the
// repository's git dir. Every run goes through safe-git.ts. Any Node process.
import path from 'node:path';
import { gitEnv, MORI_REF, READS_CONTENTS } from './git-policy.js';
import { makePrivateGitDir } from './private-git-dir.js';
import { GIT_TIMEOUT_MS, knownRepo, spawnGitAsync, type GitRun } from './safe-git.js';

export interface MoriRefOp {
  op: 'create' | 'delete';
  /** Under refs/mori/ (refused otherwise). */
  ref: string;
  /** The commit a created ref points at. */
  oid?: string;
}

export interface RunOptions {
  /** A temporary index instead of the repository's (a file in `scratch`). */
  index?: string;
  input?: string | Buffer;
  /** Added to git's environment (a commit's identity and date). */
  env?: Readonly<Record<string, string>>;
  /** Called once git has been started (or failed to start). */
  started?: () => void;
}

/** One repository opened for a sequence of runs on one private git dir; close() removes it. */
export interface RepoGit {
  readonly topLevel: string;
  readonly gitDir: string;
  /** A private directory for temporary files (an index), removed with the private git dir. */
  readonly scratch: string;
  run(args: readonly string[], opts?: RunOptions): Promise<GitRun>;
  /** `update-ref --stdin -z` on the repository's own git dir, refs under refs/mori/ only, in one transaction. */
  updateMoriRefs(ops: readonly MoriRefOp[]): Promise<GitRun>;
  close(): void;
}

export type RepoOpen = { ok: true; git: RepoGit } | { ok: false; notARepo: boolean; timedOut: boolean };

/** Opens `dir`'s repository for runs on a private git dir (see the header); not a repository → notARepo. */
export async function openRepoGit(dir: string, timeoutMs = GIT_TIMEOUT_MS): Promise<RepoOpen> {
  const known = await knownRepo(dir, () => timeoutMs);
  if (!('repo' in known)) return { ok: false, notARepo: known.code !== null && !known.timedOut, timedOut: known.timedOut };
  const priv = makePrivateGitDir(known.repo, known.safeConfig);
  if (priv === null) return { ok: false, notARepo: false, timedOut: false };
  const scratch = priv.env['GIT_DIR'] ?? '';
  const git: RepoGit = {
    topLevel: known.repo.topLevel,
    gitDir: known.repo.gitDir,
    scratch,
    run: (args, opts = {}) => {
      if (!READS_CONTENTS.has(args[0] ?? '') && args[0] !== 'rev-parse') throw new Error(`git ${args[0] ?? ''}: not a private-dir subcommand (repo-git.ts)`);
      if (opts.index !== undefined && path.dirname(opts.index) !== scratch) throw new Error('git: a temporary index lives in the private dir');
      const env = gitEnv({ ...opts.env, ...priv.env, ...(opts.index !== undefined ? { GIT_INDEX_FILE: opts.index } : {}) });
      return spawnGitAsync(known.repo.topLevel, args, env, timeoutMs, opts.input, opts.started);
    },
    updateMoriRefs: (ops) => {
      const input = ops.map((o) => {
        if (!MORI_REF.test(o.ref) || o.ref.includes('..')) throw new Error(`update-ref ${o.ref}: outside refs/mori/ (repo-git.ts)`);
        if (o.op === 'create' && !/^[0-9a-f]{40,64}$/.test(o.oid ?? '')) throw new Error(`update-ref ${o.ref}: not an object id (repo-git.ts)`);
        return o.op === 'create' ? `create ${o.ref}\0${o.oid ?? ''}\0` : `delete ${o.ref}\0\0`;
      });
      return spawnGitAsync(known.repo.topLevel, ['update-ref', '--stdin', '-z'], gitEnv(), timeoutMs, input.join(''));
    },
    close: () => priv.remove(),
  };
  return { ok: true, git };
}
