// Creates and locates state dirs, `<project>/.mori/<name>/` (DESIGN.md §3), and keeps their paths
// confined to the project dir (realpath: no symlink escape). Any Node process.
import { existsSync, lstatSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sessionNameProblem, type BackendName, type ProfileName, type ResumeMode, type SessionRecord, type SessionSandbox, type SessionWorktree } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { fsyncDir } from './atomic-write.js';
import { excludeStateDirs, type ExcludeOutcome } from '../git/git-exclude.js';
import { addToRegistry } from './registry.js';
import { writeSessionFile } from './session-file.js';
import { environmentTemplate, sessionStateTemplate, workLogTemplate } from './state-templates.js';
import { ensureStateSubdir, STATE_ROOT } from './state-file-guard.js';
import { appendEntry } from './work-log.js';
import { confinedStateDir } from './project-dir.js';
import { ENVIRONMENT, SESSION_STATE, WORK_LOG } from '../../common/state-files.js';

export { STATE_ROOT, confinedStateDir };
export const TRANSCRIPT_DIR = 'transcript';
/** Files looked for in the project at init, to list under Context Files. */
const CONTEXT_FILE_CANDIDATES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'CONVENTIONS.md'];

export interface CreateOptions {
  projectDir: string;
  name: string;
  profile: ProfileName;
  task?: string | undefined;
  backend: BackendName;
  command?: string | undefined;
  /** How relaunches take up the conversation; absent: the daemon's default. */
  resume?: ResumeMode | undefined;
  home?: string | undefined;
  /** Recorded in session.json: the worktree made for the session (projectDir is its path). */
  worktree?: SessionWorktree | undefined;
  /** Recorded in session.json: its sandbox (sandbox-choice.ts); absent: none. */
  sandbox?: SessionSandbox | undefined;
  /** A conversation taken from the agent's own supervisor (`mori init --adopt`): the session takes it up as a relaunch, not a new one. */
  adopted?: { agentSessionId: string; cwd: string | null } | undefined;
}

export interface Created {
  stateDir: string;
  session: SessionRecord;
  gitExclude: ExcludeOutcome;
}

export function stateDirFor(projectDir: string, name: string): string {
  return path.join(projectDir, STATE_ROOT, name);
}

/** Makes `dir` when absent (one level, never through a symlink) and checks it is a real directory. */
function makeRealDir(dir: string): Result<true> {
  try {
    mkdirSync(dir, { mode: 0o755 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return fail('failed', `${dir}: cannot be created (${(err as Error).message})`);
  }
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) return fail('unreadable', `${dir}: is a symbolic link; Mori keeps state only in a real directory of the project (replace it with one)`);
  if (!st.isDirectory()) return fail('unreadable', `${dir}: is not a directory`);
  return ok(true);
}

export async function createSession(opts: CreateOptions): Promise<Result<Created>> {
  const nameProblem = sessionNameProblem(opts.name);
  if (nameProblem !== null) return fail('usage', `"${opts.name}" is not a valid session name: ${nameProblem}`);
  let projectDir: string;
  try {
    projectDir = realpathSync(opts.projectDir);
    if (!statSync(projectDir).isDirectory()) return fail('not-found', `${opts.projectDir}: not a directory`);
  } catch {
    return fail('not-found', `${opts.projectDir}: no such directory`);
  }
  const stateDir = stateDirFor(projectDir, opts.name);
  if (existsSync(stateDir)) {
    return fail('conflict', `${stateDir}: a session named "${opts.name}" already exists in this project`);
  }
  // Not `mkdir -p`: `.mori` may be a symlink to elsewhere, and nothing is made through one. Each level
  // is made on its own (mkdir never follows a symlink) and checked before the next.
  const root = path.dirname(stateDir);
  const made = makeRealDir(root);
  if (!made.ok) return made;
  try {
    mkdirSync(stateDir, { mode: 0o755 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fail('conflict', `${stateDir}: a session named "${opts.name}" already exists in this project`);
    return fail('failed', `${stateDir}: cannot be created (${(err as Error).message})`);
  }
  const confined = confinedStateDir(projectDir, stateDir);
  if (!confined.ok) return confined;

  const contextFiles = CONTEXT_FILE_CANDIDATES.filter((f) => existsSync(path.join(projectDir, f)));
  const input = { name: opts.name, task: opts.task, projectDir, contextFiles };
  // `wx`: these are fresh files in a fresh dir; never clobber anything that appeared meanwhile.
  writeFileSync(path.join(stateDir, SESSION_STATE), sessionStateTemplate(input), { flag: 'wx' });
  writeFileSync(path.join(stateDir, ENVIRONMENT), environmentTemplate(input), { flag: 'wx' });
  writeFileSync(path.join(stateDir, WORK_LOG), workLogTemplate(), { flag: 'wx' });
  ensureStateSubdir(stateDir, TRANSCRIPT_DIR);
  appendEntry(stateDir, [`SESSION CREATED - agent ${opts.profile}${opts.task ? `; task: ${opts.task}` : ''}`]);

  const session = writeSessionFile(stateDir, {
    schemaVersion: 1,
    id: randomUUID(),
    name: opts.name,
    projectDir,
    createdAt: new Date().toISOString(),
    ...(opts.task ? { task: opts.task } : {}),
    agent: {
      profile: opts.profile,
      ...(opts.command ? { command: opts.command } : {}),
      ...(opts.adopted ? { sessionId: opts.adopted.agentSessionId, cwd: opts.adopted.cwd, fromOwnSupervisor: true } : { sessionId: null, cwd: null }),
    },
    ...(opts.adopted ? { intent: { kind: 'interrupted', reason: 'app-exit' } as const } : {}),
    backend: opts.backend,
    ...(opts.resume ? { resume: opts.resume } : {}),
    ...(opts.worktree ? { worktree: opts.worktree } : {}),
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
  });
  fsyncDir(stateDir);
  fsyncDir(path.dirname(stateDir));
  const gitExclude = excludeStateDirs(projectDir);
  const reg = await addToRegistry({ id: session.id, name: session.name, stateDir }, opts.home);
  if (!reg.ok) return reg;
  return ok({ stateDir, session, gitExclude });
}
