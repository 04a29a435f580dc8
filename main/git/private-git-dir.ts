// A private git dir for reading a repository's working tree without its config: a temp dir whose
// `config` holds only the repository's keys that name no program (SAFE_REPO_KEYS), whose HEAD is a
// copy of the repository's, and whose refs, packed-refs, info (exclude), shared index and objects are
// the repository's own, read in place. Git pointed at it (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE,
// GIT_OBJECT_DIRECTORY) sees the same commits, index and ignore rules, and never the config an
// attacker could change between two reads. Used by safe-git.ts only. Any Node process.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAgentFileError, readAgentFileSync } from '../os/agent-file.js';
import { PRIVATE_GIT_PREFIX } from './private-git-sweep.js';

/**
 * Config keys copied from the repository (lower-case, as `git config --list` prints them): layout,
 * object format and how the working tree compares to the index. None names a program or a hook.
 */
const SAFE_REPO_KEYS =
  /^(?:core\.(?:repositoryformatversion|filemode|symlinks|ignorecase|precomposeunicode|autocrlf|eol|safecrlf|checkstat|trustctime|sparsecheckout|sparsecheckoutcone|quotepath|excludesfile|longpaths)|extensions\.[a-z0-9-]+|index\.[a-z0-9]+|feature\.manyfiles|(?:status|diff)\.(?:renames|renamelimit))$/;

export interface RepoPaths {
  /** This working tree's git dir (HEAD, index). */
  gitDir: string;
  /** The repository's common dir (config, refs, objects); the git dir itself outside linked worktrees. */
  commonDir: string;
  topLevel: string;
}

/** Arguments for the `rev-parse` whose output parseRepoPaths reads. */
export const REPO_PATHS_ARGS = ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-toplevel'];
/** Arguments for the `config` whose output safeRepoConfig reads: the repository's own file only. */
export const REPO_CONFIG_ARGS = ['config', '--local', '--null', '--list'];

export function parseRepoPaths(stdout: string): RepoPaths | null {
  const [gitDir, commonDir, topLevel] = stdout.split('\n');
  if (!gitDir || !commonDir || !topLevel || ![gitDir, commonDir, topLevel].every((p) => path.isAbsolute(p))) return null;
  return { gitDir, commonDir, topLevel };
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

function recordKey(record: string): string {
  const nl = record.indexOf('\n');
  return nl < 0 ? record : record.slice(0, nl);
}

/** The records of `git config --local --null --list` output whose keys are in SAFE_REPO_KEYS, in the same form. */
export function safeConfigRecords(listOutput: string): string {
  return listOutput
    .split('\0')
    .filter((record) => SAFE_REPO_KEYS.test(recordKey(record)))
    .map((record) => `${record}\0`)
    .join('');
}

/** The private config: the SAFE_REPO_KEYS entries of `git config --local --null --list` output, core.bare false. */
export function safeRepoConfig(listOutput: string): string {
  const sections = new Map<string, string[]>([['core', ['\tbare = false']]]);
  for (const record of listOutput.split('\0')) {
    const nl = record.indexOf('\n');
    const key = recordKey(record);
    if (!SAFE_REPO_KEYS.test(key)) continue;
    const dot = key.indexOf('.');
    const section = key.slice(0, dot);
    const lines = sections.get(section) ?? [];
    lines.push(`\t${key.slice(dot + 1)} = ${nl < 0 ? 'true' : quote(record.slice(nl + 1))}`);
    sections.set(section, lines);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join('');
}

export interface PrivateGitDir {
  /** The environment that points git at the private dir and the repository's working tree. */
  env: Record<string, string>;
  remove: () => void;
}

/** The private dirs of this process whose git run has not ended yet. */
const liveDirs = new Set<string>();
let exitHookInstalled = false;

/**
 * A process that exits while git runs (a daemon's shutdown past its deadline, process.exit from a
 * command) removes the dirs of those runs as it goes: nothing would remove them after the last
 * `mori down` (the sweep runs as a daemon starts). Only this process's own dirs, made above.
 */
function removeLiveDirsAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const dir of liveDirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // Exiting: what cannot be removed now is the next daemon's sweep's.
      }
    }
    liveDirs.clear();
  });
}

/** HEAD holds a ref name or an object id: far below this. */
const HEAD_MAX_BYTES = 64 * 1024;

/**
 * Lays out the private dir; null when the repository's HEAD cannot be read. HEAD is the agent's to
 * write (it is in the project): read only as a plain file, so a FIFO there never holds the loop.
 */
export function makePrivateGitDir(repo: RepoPaths, config: string): PrivateGitDir | null {
  const read = readAgentFileSync(path.join(repo.gitDir, 'HEAD'), HEAD_MAX_BYTES);
  if (isAgentFileError(read)) return null;
  const head = read.toString('utf8');
  // The pid in the name lets a later sweep find the dirs of a process killed mid-run (private-git-sweep.ts).
  const dir = mkdtempSync(path.join(os.tmpdir(), `${PRIVATE_GIT_PREFIX}${process.pid}-`));
  liveDirs.add(dir);
  removeLiveDirsAtExit();
  const remove = (): void => {
    liveDirs.delete(dir);
    rmSync(dir, { recursive: true, force: true }); // symlinks are removed, never followed
  };
  try {
    writeFileSync(path.join(dir, 'config'), config, { mode: 0o600 });
    writeFileSync(path.join(dir, 'HEAD'), head, { mode: 0o600 });
    const links = [
      ...['refs', 'packed-refs', 'info'].map((name) => path.join(repo.commonDir, name)),
      // A split index (core.splitIndex) keeps its shared part beside the index, found through GIT_DIR.
      ...readdirSync(repo.gitDir).filter((name) => name.startsWith('sharedindex.')).map((name) => path.join(repo.gitDir, name)),
    ];
    for (const target of links) {
      // A junction on Windows needs no privilege; elsewhere the type is ignored.
      if (existsSync(target)) symlinkSync(target, path.join(dir, path.basename(target)), statSync(target).isDirectory() ? 'junction' : 'file');
    }
  } catch {
    remove();
    return null;
  }
  return {
    env: {
      GIT_DIR: dir,
      GIT_WORK_TREE: repo.topLevel,
      GIT_INDEX_FILE: path.join(repo.gitDir, 'index'),
      GIT_OBJECT_DIRECTORY: path.join(repo.commonDir, 'objects'),
    },
    remove,
  };
}
