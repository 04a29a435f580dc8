// The one place Mori runs git (test/lint/git-spawns.test.ts keeps it so). The project's `.git/config`,
// `.git/info/attributes` and `.gitattributes` are written by whoever works in the project, so git is
// run such that nothing in them makes it start a program: every run's arguments and environment come
// from git-policy.ts, which says which subcommands run and why each is safe. Runs that read file
// contents go through a private git dir (private-git-dir.ts). Synchronous runs for one-shot callers,
// asynchronous ones (spawns one per loop turn, a whole-run timeout) for periodic work, and the
// per-directory cache of a repository's paths and safe config (in memory; on disk too in a process
// that opts in, remembered-repos.ts). Any Node process.
import { spawn, spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { gitArgs, gitEnv, READS_CONTENTS } from './git-policy.js';
import { makePrivateGitDir, parseRepoPaths, REPO_CONFIG_ARGS, REPO_PATHS_ARGS, safeConfigRecords, safeRepoConfig, type RepoPaths } from './private-git-dir.js';
import { lookupStamp, rememberedRepo, rememberRepo, remembering } from './remembered-repos.js';

/** Git is given this long per run: a status on a huge repo must not stall a resume. */
export const GIT_TIMEOUT_MS = 5_000;
/** A status of a big tree with many untracked files fits easily; more is cut off, not buffered. */
export const MAX_GIT_OUTPUT_BYTES = 16 * 1024 * 1024;

export interface GitRun {
  /** null when git could not be started, was killed, or its output was over the limit. */
  code: number | null;
  stdout: string;
  timedOut: boolean;
  /** The output as bytes (blobs), from the asynchronous runs. */
  bytes?: Buffer;
}

const NO_GIT: GitRun = { code: null, stdout: '', timedOut: false };

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

/**
 * One asynchronous git run with the environment given (a private git dir's for the runs that read
 * contents). `started` is called once git has been started, or has failed to start.
 */
export async function spawnGitAsync(dir: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number, input?: string | Buffer, started?: () => void): Promise<GitRun> {
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
    } finally {
      started?.();
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
export interface KnownRepo {
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
export async function knownRepo(dir: string, left: () => number): Promise<KnownRepo | GitRun> {
  const cached = await cachedRepo(dir);
  if (cached !== null) return cached;
  const running = lookups.get(dir);
  if (running !== undefined) return running;
  const lookup = lookUpRepo(dir, left).finally(() => lookups.delete(dir));
  lookups.set(dir, lookup);
  return lookup;
}

async function lookUpRepo(dir: string, left: () => number): Promise<KnownRepo | GitRun> {
  const remembered = rememberedRepo(dir);
  if (remembered !== null) return { repo: remembered.repo, safeConfig: safeRepoConfig(remembered.configRecords), stamp: '' };
  const paths = await spawnGitAsync(dir, REPO_PATHS_ARGS, gitEnv(), left());
  const repo = repoOf(paths);
  if (repo === null) return paths.code === 0 ? NO_GIT : paths;
  const stamp = await configStamp(repo);
  const lookup = remembering() ? lookupStamp(dir, repo) : null;
  const config = await spawnGitAsync(dir, REPO_CONFIG_ARGS, gitEnv(), left());
  if (config.timedOut) return config;
  const records = safeConfigRecords(config.stdout);
  const known = { repo, safeConfig: safeRepoConfig(records), stamp: stamp ?? '' };
  if (stamp !== null && config.code === 0) repoCache.set(dir, known);
  if (config.code === 0) rememberRepo(dir, paths.stdout, records, lookup);
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
