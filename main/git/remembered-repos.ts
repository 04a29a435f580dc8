// A repository lookup remembered between processes (DESIGN.md §10, §11): which repository a project
// folder is in (git dir, common dir, top level) and the safe part of its config, so a short command
// (`mori changes`) runs git for its work only, not two more gits (rev-parse, config) first. Kept in
// the person's cache folder, never in a project, one small JSON file per folder; used only while
// everything the answer came from is as it was: the repository's config file and git dir (inode,
// size, modification time, as the daemon's in-memory cache checks), the top level's `.git` entry and
// owner (git refuses a repository someone else owns), and no `.git` between the folder and the top
// level. The config kept is re-filtered through SAFE_REPO_KEYS when read, and a file that is not
// what this module writes is ignored: an unreadable or stale cache only costs the two gits. Any Node
// process that opts in (rememberReposIn); the daemon keeps its own in memory (safe-git.ts).
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseRepoPaths, type RepoPaths } from './private-git-dir.js';

/** The folder remembered lookups are kept in, or null when this process does not use one. */
let folder: string | null = null;

/** The person's cache folder for Mori: $XDG_CACHE_HOME/mori, ~/.cache/mori, ~/Library/Caches/mori. */
export function moriCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || (process.platform === 'darwin' ? path.join(os.homedir(), 'Library', 'Caches') : path.join(os.homedir(), '.cache'));
  return path.join(base, 'mori');
}

/** From now on this process reads and writes remembered lookups in `dir` (null: none). */
export function rememberReposIn(dir: string | null): void {
  folder = dir;
}

/** Whether this process remembers lookups (rememberReposIn was given a folder). */
export function remembering(): boolean {
  return folder !== null;
}

/** FNV-1a over the text's UTF-16 units, 8 hex digits; two seeds make the 64-bit file name of a folder. */
function fnv1a(text: string, seed: number): string {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function entryFile(dir: string): string | null {
  return folder === null ? null : path.join(folder, 'repos', `${fnv1a(dir, 2166136261)}${fnv1a(dir, 374761393)}.json`);
}

function statStamp(file: string, follow: boolean): string {
  const st = follow ? statSync(file) : lstatSync(file);
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/**
 * What the lookup of `dir` depends on, as one string; null when it cannot be told (something gone,
 * the top level owned by someone else, a `.git` between the folder and the top level). Taken before
 * the config is read, so a change while it is read makes the entry stale, never wrongly current.
 */
export function lookupStamp(dir: string, repo: RepoPaths): string | null {
  try {
    const top = statSync(repo.topLevel);
    if (typeof process.getuid === 'function' && top.uid !== process.getuid()) return null;
    const rel = path.relative(repo.topLevel, dir);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
    // A `.git` made in a folder between: git would now find that repository instead.
    for (let d = dir; d !== repo.topLevel && d !== path.dirname(d); d = path.dirname(d)) {
      try {
        lstatSync(path.join(d, '.git'));
        return null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
      }
    }
    return [top.ino, statStamp(path.join(repo.topLevel, '.git'), false), statStamp(repo.gitDir, true), statStamp(path.join(repo.commonDir, 'config'), true)].join('/');
  } catch {
    return null;
  }
}

export interface Remembered {
  repo: RepoPaths;
  /** The repository's config records (`config --local --null --list`) whose keys are safe; re-filtered by the caller. */
  configRecords: string;
}

/** The lookup of `dir` remembered earlier, when everything it came from is unchanged; else null. */
export function rememberedRepo(dir: string): Remembered | null {
  const file = entryFile(dir);
  if (file === null) return null;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (data['dir'] !== dir || typeof data['paths'] !== 'string' || typeof data['config'] !== 'string' || typeof data['stamp'] !== 'string') return null;
    const repo = parseRepoPaths(data['paths']);
    if (repo === null || lookupStamp(dir, repo) !== data['stamp']) return null;
    return { repo, configRecords: data['config'] };
  } catch {
    return null; // none yet, or not one of ours
  }
}

/**
 * Remembers the lookup of `dir`: rev-parse's paths output, the safe config records and the
 * lookupStamp taken before the config was read. Failures only cost speed.
 */
export function rememberRepo(dir: string, paths: string, configRecords: string, stamp: string | null): void {
  const file = entryFile(dir);
  if (file === null || stamp === null || parseRepoPaths(paths) === null) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ dir, paths, config: configRecords, stamp }), { mode: 0o600 });
    renameSync(tmp, file); // whole or not at all: a concurrent command reads the old entry or the new
  } catch {
    // a read-only or missing cache folder: the next command looks the repository up again
  }
}
