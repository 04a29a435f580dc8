// Where a session's project and its agent's working dir are (DESIGN.md §3). session.json stores both,
// but anything in the project can write that file, so neither is taken from it: the project is where
// the state dir lies (`<project>/.mori/<name>` → `<project>`), and the stored values are only checked
// against it. A stored `projectDir` that names another dir, or an `agent.cwd` outside the project, is
// refused with the file and the field named. Any Node process.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { SessionRecord } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { sessionFilePath } from './session-file.js';
import { STATE_ROOT } from './state-file-guard.js';

/** The paths of a session as Mori uses them: real paths, checked. */
export interface SessionPaths {
  projectDir: string;
  /** The agent's recorded working dir (a real path inside the project), or null when none is recorded. */
  agentCwd: string | null;
}

const realOrNull = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

const isInside = (dir: string, p: string): boolean => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Resolves `stateDir` and checks it lies inside its project dir (no `.mori` symlink pointing
 * elsewhere). Returns the real path.
 */
export function confinedStateDir(projectDir: string, stateDir: string): Result<string> {
  const realProject = realpathSync(projectDir);
  let real: string;
  try {
    real = realpathSync(stateDir);
  } catch {
    return fail('not-found', `${stateDir}: no such state dir`);
  }
  const inside = path.relative(realProject, real);
  if (inside.startsWith('..') || path.isAbsolute(inside)) {
    return fail('unreadable', `${stateDir}: resolves to ${real}, outside the project ${realProject} (a symlink?); refusing to use it`);
  }
  return ok(real);
}

/**
 * The project a state dir belongs to: the dir holding its `.mori`, as a real path, with the state dir
 * confined to it (a `.mori` symlink pointing elsewhere is refused).
 */
export function projectDirOf(stateDir: string): Result<string> {
  const parent = path.dirname(path.resolve(stateDir));
  if (path.basename(parent) !== STATE_ROOT) return fail('unreadable', `${stateDir}: not a state dir (<project>/${STATE_ROOT}/<name>)`);
  const project = realOrNull(path.dirname(parent));
  if (project === null) return fail('not-found', `${stateDir}: its project dir ${path.dirname(parent)} does not exist`);
  const confined = confinedStateDir(project, stateDir);
  return confined.ok ? ok(project) : confined;
}

/**
 * The project dir and the agent's working dir of the session in `stateDir`, checked against what
 * `session` (its session.json) says. A failure names the file and the field, and is meant for
 * attention(state-invalid): the session does not start until the person corrects the file.
 */
export function sessionPaths(stateDir: string, session: Pick<SessionRecord, 'projectDir' | 'agent'>): Result<SessionPaths> {
  const file = sessionFilePath(stateDir);
  const project = projectDirOf(stateDir);
  if (!project.ok) return fail('unreadable', `${file}: projectDir: ${project.message}`);
  const projectDir = project.value;
  const stored = session.projectDir;
  if (stored !== projectDir && realOrNull(stored) !== projectDir) {
    return fail('unreadable', `${file}: projectDir: ${JSON.stringify(stored)} is not the project this state dir is in (${projectDir}); correct the field, then start the session`);
  }
  const cwd = session.agent.cwd;
  if (cwd === null) return ok({ projectDir, agentCwd: null });
  const realCwd = path.isAbsolute(cwd) ? realOrNull(cwd) : null;
  if (realCwd === null || !isInside(projectDir, realCwd)) {
    const where = realCwd === null ? 'is not an existing absolute directory' : `resolves to ${realCwd}`;
    return fail('unreadable', `${file}: agent.cwd: ${JSON.stringify(cwd)} ${where}, not inside the project ${projectDir}; correct the field or set it to null, then start the session`);
  }
  return ok({ projectDir, agentCwd: realCwd });
}
