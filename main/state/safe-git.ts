// The one place Mori runs git (test/lint/git-spawns.test.ts keeps it so). The project's `.git/config`,
// `.git/info/attributes` and `.gitattributes` are written by whoever works in the project, so git is
// run such that nothing in them makes it start a program. Any Node process.
//
// Only the subcommands in ALLOWED_SUBCOMMANDS run; each new one needs its config keys reviewed here.
// `rev-parse` and `config` read the repository's config, but under the overrides below neither starts
// a program; `status` does not read it at all (see filter drivers). Checkpoint snapshots
// (snapshot.ts) add, all on the private git dir (no repository config at all) unless said otherwise:
//   add -A           into a temporary index (GIT_INDEX_FILE in the private dir): hashes files like
//                    status, so the same filter-driver rule holds; no hook runs (hooksPath, and the
//                    private dir has no hooks dir); no pathspec from outside (snapshot.ts passes none)
//   write-tree, commit-tree, for-each-ref, ls-tree
//                    read or write objects and refs only; commit-tree gets --no-gpg-sign (commit.gpgSign
//                    of ~/.gitconfig) and a fixed identity in the environment
//   diff-tree        tree against tree, never the working tree; always --no-ext-diff --no-textconv
//                    (diff.<driver>.command/textconv are never looked up), --no-renames
//   cat-file         --batch only, never --filters/--textconv: blobs come out as stored, no smudge
//   check-ignore     --no-index: reads .gitignore files and info/exclude only
//   update-ref       --stdin only, every line naming a ref under refs/mori/ (checked here). It runs on
//                    the repository's own git dir, as rev-parse does: a private dir only links refs
//                    and packed-refs, and a deletion rewriting packed-refs would replace the link. It
//                    reads the config, where the reference-transaction hook is the one program it
//                    could start: core.hooksPath=/dev/null. core.logAllRefUpdates=false: no reflog.
// Config keys that can start a program, and what neutralises each for these subcommands:
//   core.fsmonitor              -c core.fsmonitor=false (status would run it as a hook)
//   core.untrackedCache         -c core.untrackedCache=false (no cache written behind fsmonitor's back)
//   core.hooksPath, hooks       -c core.hooksPath=/dev/null; gc.auto=0 and maintenance.auto=false keep
//                               auto-gc (and its pre-auto-gc hook) from starting
//   core.pager, pager.<cmd>     --no-pager, GIT_PAGER=cat, PAGER=cat, -c core.pager=cat
//   core.editor, sequence.editor  GIT_EDITOR=true, GIT_SEQUENCE_EDITOR=true, -c core.editor=true
//   core.askPass, credential.helper  GIT_ASKPASS=true, SSH_ASKPASS=true, GIT_TERMINAL_PROMPT=0,
//                               -c credential.helper= (an empty value clears the helper list)
//   core.sshCommand, core.gitProxy, remote.<r>.uploadpack/receivepack, protocol handlers
//                               -c protocol.allow=never (no transport at all), GIT_SSH_COMMAND=false,
//                               -c core.sshCommand=false
//   diff.external               -c diff.external= and GIT_EXTERNAL_DIFF removed; status never diffs
//                               contents, so diff.<driver>.textconv/command are not read
//   gpg.program (and .ssh/.x509)  -c gpg.*.program=false; none of these subcommands signs or verifies
//   filter.<driver>.clean/smudge/process
//                               status hashes a tracked file whose stat data changed but whose size did
//                               not, through the clean filter its attributes name. Attributes come from
//                               the tree and .git/info/attributes, which outrank anything given on the
//                               command line, and a driver can have any name, so no -c can cover them.
//                               A status therefore never reads the repository's config at all: it runs
//                               on a private git dir (private-git-dir.ts) whose config holds only the
//                               repository's keys of SAFE_REPO_KEYS, none of which names a program.
//                               Drivers in the person's own ~/.gitconfig (git-lfs) still apply.
//   submodules                  --ignore-submodules=all on status and -c submodule.recurse=false:
//                               a submodule's own config is never read
// Every GIT_* variable of Mori's own environment is dropped (GIT_DIR, GIT_CONFIG_PARAMETERS, ...),
// and GIT_CONFIG_NOSYSTEM=1 leaves /etc/gitconfig out. The person's ~/.gitconfig is still read.
import { spawn, spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { makePrivateGitDir, parseRepoPaths, REPO_CONFIG_ARGS, REPO_PATHS_ARGS, safeRepoConfig, type RepoPaths } from './private-git-dir.js';

/** Git is given this long per run: a status on a huge repo must not stall a resume. */
export const GIT_TIMEOUT_MS = 5_000;
/** A status of a big tree with many untracked files fits easily; more is cut off, not buffered. */
export const MAX_GIT_OUTPUT_BYTES = 16 * 1024 * 1024;

/** What Mori asks git (see the header for each). */
const ALLOWED_SUBCOMMANDS = new Set(['status', 'rev-parse', 'config', 'add', 'write-tree', 'commit-tree', 'for-each-ref', 'ls-tree', 'diff-tree', 'cat-file', 'check-ignore', 'update-ref']);
/** Run on a private git dir: they read file contents (attributes, filters) or are only ever used beside those that do. */
const READS_CONTENTS = new Set(['status', 'add', 'write-tree', 'commit-tree', 'for-each-ref', 'ls-tree', 'diff-tree', 'cat-file', 'check-ignore']);
/** Arguments each subcommand always gets, right after its name. */
const REQUIRED_ARGS: Readonly<Record<string, readonly string[]>> = {
  'commit-tree': ['--no-gpg-sign'],
  'diff-tree': ['--no-ext-diff', '--no-textconv', '--no-renames'],
  'check-ignore': ['--no-index'],
};
/** Arguments refused anywhere on a subcommand's line: each would run a filter, a textconv or a diff program. */
const REFUSED_ARGS = /^--(?:filters|textconv|ext-diff|exec|upload-pack|gpg-sign|batch-command)(?:=|$)|^-S/;
/** A ref Mori may write: its own namespace only. */
const MORI_REF = /^refs\/mori\/[A-Za-z0-9._/-]+$/;

/** Set before every subcommand; `-c` outranks the repository's and the person's config. */
const FIXED_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['core.askPass', 'true'],
  ['core.sshCommand', 'false'],
  ['credential.helper', ''],
  ['protocol.allow', 'never'],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['core.logAllRefUpdates', 'false'],
];

const FIXED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_ASKPASS: 'true',
  SSH_ASKPASS: 'true',
  GIT_SSH_COMMAND: 'false',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  // A partial clone's missing object is never fetched (from git 2.44; protocol.allow=never before).
  GIT_NO_LAZY_FETCH: '1',
};

export interface GitRun {
  /** null when git could not be started, was killed, or its output was over the limit. */
  code: number | null;
  stdout: string;
  timedOut: boolean;
  /** The output as bytes (blobs), from the asynchronous runs. */
  bytes?: Buffer;
}

const NO_GIT: GitRun = { code: null, stdout: '', timedOut: false };

/** `git <fixed options> -C dir <args>`, for a subcommand in ALLOWED_SUBCOMMANDS. */
export function gitArgs(dir: string, args: readonly string[]): string[] {
  const sub = args[0] ?? '';
  if (!ALLOWED_SUBCOMMANDS.has(sub)) throw new Error(`git ${sub}: not a subcommand Mori runs (safe-git.ts lists them)`);
  const end = args.indexOf('--');
  const refused = (end < 0 ? args : args.slice(0, end)).find((a) => REFUSED_ARGS.test(a));
  if (refused !== undefined) throw new Error(`git ${sub} ${refused}: an option Mori never passes (safe-git.ts)`);
  if (sub === 'update-ref' && (args.length !== 3 || args[1] !== '--stdin' || args[2] !== '-z')) throw new Error('git update-ref: only `--stdin -z` (safe-git.ts)');
  if (sub === 'cat-file' && (args.length !== 2 || args[1] !== '--batch')) throw new Error('git cat-file: only `--batch` (safe-git.ts)');
  const config = FIXED_CONFIG.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return ['--no-pager', '--no-optional-locks', ...config, '-C', dir, sub, ...(REQUIRED_ARGS[sub] ?? []), ...args.slice(1)];
}

/** Mori's environment without any GIT_* variable, plus the fixed ones and `extra` (a private git dir's). */
export function gitEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && k !== 'PAGER') env[k] = v;
  return Object.assign(env, FIXED_ENV, extra);
}

/** The repository's paths from a REPO_PATHS_ARGS run, or null (not a repository, a bare one, or no git). */
function repoOf(run: GitRun): RepoPaths | null {
  return run.code === 0 ? parseRepoPaths(run.stdout) : null;
}

// ------------------------------------------------------------------ synchronous (one-shot callers)

function spawnGitSync(dir: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): GitRun {
  const r = spawnSync('git', gitArgs(dir, args), { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs, maxBuffer: MAX_GIT_OUTPUT_BYTES });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  if (r.error !== undefined) return { ...NO_GIT, timedOut };
  return { code: r.status, stdout: r.stdout, timedOut: false };
}

/** Runs git and waits for it: for one-shot callers (a CLI command, building one prompt), never periodic work. */
export function gitSync(dir: string, args: readonly string[], timeoutMs = GIT_TIMEOUT_MS): GitRun {
  if (!READS_CONTENTS.has(args[0] ?? '')) return spawnGitSync(dir, args, gitEnv(), timeoutMs);
  const paths = spawnGitSync(dir, REPO_PATHS_ARGS, gitEnv(), timeoutMs);
  const repo = repoOf(paths);
  if (repo === null) return paths.code === 0 ? NO_GIT : paths;
  const config = spawnGitSync(dir, REPO_CONFIG_ARGS, gitEnv(), timeoutMs);
  if (config.timedOut) return config;
  const priv = makePrivateGitDir(repo, safeRepoConfig(config.stdout));
  if (priv === null) return NO_GIT;
  try {
    return spawnGitSync(dir, args, gitEnv(priv.env), timeoutMs);
  } finally {
    priv.remove();
  }
}

// ------------------------------------------------------------------ asynchronous (periodic work)

/**
 * Starting a process forks this one, which blocks the event loop for a few milliseconds (more with a
 * big heap). Spawns are chained one per loop turn, so several checkpoints starting at once never add
 * up to one long stall.
 */
let spawnGate: Promise<void> = Promise.resolve();
function nextSpawnTurn(): Promise<void> {
  const turn = spawnGate.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  spawnGate = turn;
  return turn;
}

async function spawnGitAsync(dir: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number, input?: string | Buffer): Promise<GitRun> {
  const argv = gitArgs(dir, args);
  await nextSpawnTurn();
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      // detached: git gets its own process group, so the timeout kills anything it started too.
      child = spawn('git', argv, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'], detached: process.platform !== 'win32' });
    } catch {
      resolve(NO_GIT);
      return;
    }
    if (input !== undefined) {
      child.stdin?.on('error', () => undefined); // git exited before reading it all: its exit code says why
      child.stdin?.end(input);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const kill = (): void => {
      try {
        if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_GIT_OUTPUT_BYTES) kill();
      else chunks.push(d);
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve(NO_GIT); // no git on PATH
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      resolve({ code: size > MAX_GIT_OUTPUT_BYTES ? null : code, stdout: bytes.toString('utf8'), timedOut, bytes });
    });
  });
}

/**
 * A repository's paths and safe config, kept per directory while its config file is unchanged (same
 * inode, size and mtime): a periodic checkpoint then runs one git (the status) instead of three. The
 * config is filtered to SAFE_REPO_KEYS either way, so a stale entry can at worst carry an old harmless
 * key until the next change of the file.
 */
interface KnownRepo {
  repo: RepoPaths;
  safeConfig: string;
  stamp: string;
}
const repoCache = new Map<string, KnownRepo>();

async function configStamp(repo: RepoPaths): Promise<string | null> {
  try {
    const [config, gitDir] = await Promise.all([stat(path.join(repo.commonDir, 'config')), stat(repo.gitDir)]);
    return `${config.ino}:${config.size}:${config.mtimeMs}:${gitDir.ino}`;
  } catch {
    return null;
  }
}

async function cachedRepo(dir: string): Promise<KnownRepo | null> {
  const known = repoCache.get(dir);
  if (known === undefined) return null;
  if ((await configStamp(known.repo)) === known.stamp) return known;
  repoCache.delete(dir);
  return null;
}

/** Lookups under way, per directory: sessions of one project checkpointing together share one. */
const lookups = new Map<string, Promise<KnownRepo | GitRun>>();

/** The repository of `dir` with its safe config, from the cache or one shared lookup; else git's answer. */
async function knownRepo(dir: string, left: () => number): Promise<KnownRepo | GitRun> {
  const cached = await cachedRepo(dir);
  if (cached !== null) return cached;
  const running = lookups.get(dir);
  if (running !== undefined) return running;
  const lookup = lookUpRepo(dir, left).finally(() => lookups.delete(dir));
  lookups.set(dir, lookup);
  return lookup;
}

async function lookUpRepo(dir: string, left: () => number): Promise<KnownRepo | GitRun> {
  const paths = await spawnGitAsync(dir, REPO_PATHS_ARGS, gitEnv(), left());
  const repo = repoOf(paths);
  if (repo === null) return paths.code === 0 ? NO_GIT : paths;
  const stamp = await configStamp(repo);
  const config = await spawnGitAsync(dir, REPO_CONFIG_ARGS, gitEnv(), left());
  if (config.timedOut) return config;
  const known = { repo, safeConfig: safeRepoConfig(config.stdout), stamp: stamp ?? '' };
  if (stamp !== null && config.code === 0) repoCache.set(dir, known);
  return known;
}

/**
 * Runs git without blocking the event loop. The whole run (with the reads a `status` needs first) is
 * given `timeoutMs`; a git still running then is killed with its process group, and `timedOut` set.
 */
export async function gitAsync(dir: string, args: readonly string[], timeoutMs = GIT_TIMEOUT_MS): Promise<GitRun> {
  if (!READS_CONTENTS.has(args[0] ?? '')) return spawnGitAsync(dir, args, gitEnv(), timeoutMs);
  const end = performance.now() + timeoutMs;
  const left = (): number => Math.max(1, Math.round(end - performance.now()));
  const known = await knownRepo(dir, left);
  if (!('repo' in known)) return known;
  const priv = makePrivateGitDir(known.repo, known.safeConfig);
  if (priv === null) return NO_GIT;
  try {
    return await spawnGitAsync(dir, args, gitEnv(priv.env), left());
  } finally {
    priv.remove();
  }
}

// ------------------------------------------------------------------ one repository, several runs

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
      if (!READS_CONTENTS.has(args[0] ?? '') && args[0] !== 'rev-parse') throw new Error(`git ${args[0] ?? ''}: not a private-dir subcommand (safe-git.ts)`);
      if (opts.index !== undefined && path.dirname(opts.index) !== scratch) throw new Error('git: a temporary index lives in the private dir');
      const env = gitEnv({ ...opts.env, ...priv.env, ...(opts.index !== undefined ? { GIT_INDEX_FILE: opts.index } : {}) });
      return spawnGitAsync(known.repo.topLevel, args, env, timeoutMs, opts.input);
    },
    updateMoriRefs: (ops) => {
      const input = ops.map((o) => {
        if (!MORI_REF.test(o.ref) || o.ref.includes('..')) throw new Error(`git update-ref ${o.ref}: outside refs/mori/`);
        if (o.op === 'create' && !/^[0-9a-f]{40,64}$/.test(o.oid ?? '')) throw new Error(`git update-ref ${o.ref}: not an object id`);
        return o.op === 'create' ? `create ${o.ref}\0${o.oid ?? ''}\0` : `delete ${o.ref}\0\0`;
      });
      return spawnGitAsync(known.repo.topLevel, ['update-ref', '--stdin', '-z'], gitEnv(), timeoutMs, input.join(''));
    },
    close: () => priv.remove(),
  };
  return { ok: true, git };
}
