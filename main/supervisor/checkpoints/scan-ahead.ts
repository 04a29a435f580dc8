// The work tree's scan for `mori changes`, started before the command loads the rest of what it
// needs (the session file's schemas, the registry, the listing's parsers): git scans on one core
// while this process loads on the other (DESIGN.md §10). Started only for a session given as its
// state dir's path (a name or an id needs the registry first), in the project that path lies in; the
// command still resolves and checks the session as always and uses the scan only when it names the
// same project (changes.ts), else drops it. Loads nothing but git's modules. Runs in the CLI process.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { openRepoGit, type RepoGit } from '../../git/repo-git.js';
import { addWorkTree, copyPersonsIndex } from '../../git/snapshot.js';
import { SESSION_FILE } from '../../../common/state-files.js';

/** A scan begun ahead: its repository (null when it could not be opened) and its temporary index (null when the scan failed). */
export interface ScanAhead {
  /** The project the scan is of: the real path of the folder holding the state dir's `.mori`. */
  readonly projectDir: string;
  readonly git: Promise<RepoGit | null>;
  readonly index: Promise<string | null>;
  /** Resolves once the scan's git has started (or the scan ended without one): the command loads the rest of its code after it. */
  readonly started: Promise<void>;
  /** Removes the scan's private git dir once it is done; the command calls it when it is finished with the scan, used or not. */
  close(): Promise<void>;
}

/** The scan of the project `spec` lies in, begun now, when `spec` is the path of a state dir; else null. */
export function scanAhead(spec: string, cwd = process.cwd()): ScanAhead | null {
  if (!spec.includes('/') && !spec.includes(path.sep)) return null;
  const stateDir = path.resolve(cwd, spec);
  const parent = path.dirname(stateDir);
  // The shape resolve-session.ts and project-dir.ts check again: `<project>/.mori/<name>/session.json`.
  if (path.basename(parent) !== '.mori' || !existsSync(path.join(stateDir, SESSION_FILE))) return null;
  let projectDir: string;
  try {
    projectDir = realpathSync(path.dirname(parent));
  } catch {
    return null;
  }
  let onStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const git = openRepoGit(projectDir).then((r) => (r.ok ? r.git : null));
  const index = git
    .then(async (g) => (g === null ? null : addWorkTree(g, projectDir, await copyPersonsIndex(g), onStarted)))
    .catch(() => null)
    .finally(onStarted);
  return {
    projectDir,
    git,
    index,
    started,
    close: async () => {
      await index;
      (await git)?.close();
    },
  };
}
