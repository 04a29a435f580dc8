// Renaming and unregistering a session on disk (DESIGN.md §3, §9): a rename moves the state dir
// `<project>/.mori/<old>/` to `<project>/.mori/<new>/` (one rename(2) in the same `.mori`), gives
// session.json the new name, and updates the registry; the id never changes. A removal takes the
// session out of the registry and, only when asked, deletes its state dir. Both refuse a state dir or
// `.mori` that is a symlink, and a target name that is invalid or in use. The caller (the supervisor)
// has let go of the session first: nothing here stops an agent. Any Node process.
import { lstatSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { sessionNameProblem } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { fsyncDir } from './atomic-write.js';
import { projectDirOf } from './project-dir.js';
import { readRegistry, removeFromRegistry, updateRegistry } from './registry.js';
import { readSessionFile, updateSessionFile } from './session-file.js';
import { confinedStateDir, stateDirFor, STATE_ROOT } from './state-dir.js';
import { appendEntry } from './work-log.js';

/** The state dir, checked: a real directory (not a symlink) directly in a real `.mori` of its project. */
function checkedStateDir(stateDir: string): Result<{ projectDir: string; stateDir: string }> {
  const project = projectDirOf(stateDir);
  if (!project.ok) return project;
  for (const dir of [path.join(project.value, STATE_ROOT), stateDir]) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      return fail('not-found', `${dir}: no such directory`);
    }
    if (st.isSymbolicLink()) return fail('unreadable', `${dir}: is a symbolic link; Mori moves or deletes only a real directory of the project`);
    if (!st.isDirectory()) return fail('unreadable', `${dir}: is not a directory`);
  }
  const confined = confinedStateDir(project.value, stateDir);
  if (!confined.ok) return confined;
  return ok({ projectDir: project.value, stateDir: confined.value });
}

/** Whether a name is free in the project: nothing (not even a dangling symlink) at `.mori/<name>`, no registry entry there. */
function nameTaken(projectDir: string, name: string, home: string | undefined): string | null {
  const target = stateDirFor(projectDir, name);
  try {
    lstatSync(target);
    return `${target} already exists`;
  } catch {
    // absent: free on disk
  }
  const registry = readRegistry(home);
  if (registry.ok && registry.value.some((e) => path.resolve(e.stateDir) === target)) return `the registry already names ${target}`;
  return null;
}

export interface Renamed {
  id: string;
  from: string;
  to: string;
  oldStateDir: string;
  stateDir: string;
}

/**
 * Renames the session whose state dir is `stateDir` to `name`. On a failure after the move (session.json
 * or the registry cannot be written), the move is undone and nothing is left half-renamed.
 */
export async function renameStateDir(stateDir: string, name: string, home?: string): Promise<Result<Renamed>> {
  const nameProblem = sessionNameProblem(name);
  if (nameProblem !== null) return fail('usage', `"${name}" is not a valid session name: ${nameProblem}`);
  const checked = checkedStateDir(stateDir);
  if (!checked.ok) return checked;
  const { projectDir } = checked.value;
  const from = checked.value.stateDir;
  const session = readSessionFile(from);
  if (!session.ok) return session;
  const old = session.value.name;
  if (old === name) return fail('usage', `session "${old}" is already named "${name}"`);
  const taken = nameTaken(projectDir, name, home);
  if (taken) return fail('conflict', `cannot rename "${old}" to "${name}": ${taken} (a session name is unique in its project)`);
  const to = stateDirFor(projectDir, name);
  try {
    renameSync(from, to);
  } catch (err) {
    return fail('failed', `cannot move ${from} to ${to}: ${(err as Error).message}`);
  }
  const undo = (why: string): Result<never> => {
    try {
      renameSync(to, from);
    } catch (err) {
      return fail('failed', `${why}; and moving ${to} back to ${from} failed too (${(err as Error).message}): move it back by hand`);
    }
    return fail('failed', `${why}; the rename was undone`);
  };
  const written = updateSessionFile(to, (s) => ({ ...s, name }));
  if (!written.ok) return undo(`cannot give ${to}/session.json the new name: ${written.message}`);
  const id = written.value.id;
  const reg = await updateRegistry((entries) => entries.map((e) => (e.id === id ? { id, name, stateDir: to } : e)), home);
  if (!reg.ok) {
    updateSessionFile(to, (s) => ({ ...s, name: old }));
    return undo(`cannot update the registry: ${reg.message}`);
  }
  fsyncDir(path.dirname(to));
  try {
    appendEntry(to, [`SESSION RENAMED - from "${old}" to "${name}" (state dir ${from} → ${to})`]);
  } catch {
    // the rename holds; a work log that cannot be written is reported by the supervisor's next write
  }
  return ok({ id, from: old, to: name, oldStateDir: from, stateDir: to });
}

/** Takes the session `id` out of the registry; with `deleteState`, deletes its state dir too (never through a symlink). */
export async function unregisterSession(id: string, stateDir: string, deleteState: boolean, home?: string): Promise<Result<{ stateDeleted: boolean }>> {
  // Checked before anything changes: a state dir that is a symlink is refused, not half-removed.
  const checked = deleteState ? checkedStateDir(stateDir) : null;
  if (checked && !checked.ok) return checked;
  const reg = await removeFromRegistry(id, home);
  if (!reg.ok) return reg;
  if (!checked) {
    try {
      // Whoever finds the kept files later reads why no Mori lists them.
      appendEntry(stateDir, ['SESSION REMOVED - unregistered by the person; these state files were kept']);
    } catch {
      // the removal holds; a work log that cannot be written changes nothing about it
    }
    return ok({ stateDeleted: false });
  }
  try {
    // rmSync never follows a symlink inside the tree: a link to the person's files goes, not its target.
    rmSync(checked.value.stateDir, { recursive: true, force: true });
  } catch (err) {
    return fail('failed', `unregistered, but ${checked.value.stateDir} could not be deleted: ${(err as Error).message}`);
  }
  fsyncDir(path.dirname(checked.value.stateDir));
  return ok({ stateDeleted: true });
}
