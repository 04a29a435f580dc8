// The texts Mori gives an agent about its state files (DESIGN.md §3, §5): the first prompt of a new
// session and the short nudge typed after an interruption. Pure; runs in the supervisor's process.
import path from 'node:path';
import { ENVIRONMENT, SESSION_STATE, WORK_LOG } from '../../common/state-files.js';

/** The three markdown files of a session's state dir `<project>/.mori/<name>/`. */
export interface StateFilePaths {
  dir: string;
  sessionState: string;
  environment: string;
  workLog: string;
}

export function stateFilePaths(projectDir: string, name: string): StateFilePaths {
  const dir = path.join(projectDir, '.mori', name);
  return {
    dir,
    sessionState: path.join(dir, SESSION_STATE),
    environment: path.join(dir, ENVIRONMENT),
    workLog: path.join(dir, WORK_LOG),
  };
}

export interface FirstPromptInput {
  projectDir: string;
  name: string;
  /** The task the person gave when creating the session; absent when they will type it themselves. */
  task?: string | undefined;
}

/** A path as the agent (running in the project dir) should see it: relative when inside the project. */
function shown(projectDir: string, file: string): string {
  const rel = path.relative(projectDir, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

/** The first prompt of a new session: the task, then where the state files are and how to keep them. */
export function firstPrompt(input: FirstPromptInput): string {
  const p = stateFilePaths(input.projectDir, input.name);
  const at = (file: string): string => shown(input.projectDir, file);
  const lines: string[] = [];
  if (input.task !== undefined && input.task.trim() !== '') lines.push(`Task: ${input.task.trim()}`, '');
  lines.push(
    `This session is supervised by Mori, which resumes you after crashes, sleep and network drops. Your state files are in ${at(p.dir)}/:`,
    `- ${at(p.sessionState)}: read it first. Keep it current as you work: Current Task, Context, Next Steps, Decisions, Context Files. Keep it short.`,
    `- ${at(p.environment)}: how to set up and verify the project (test command, services and their ports, start commands). Update it when that changes.`,
    `- ${at(p.workLog)}: append a short dated entry after each meaningful step. Never rewrite earlier entries.`,
    'If you are resumed after an interruption, read session_state.md again before doing anything else.',
  );
  return lines.join('\n');
}

/** The short text typed into a live agent after an interruption (sleep, network): one line, no newline. */
export function nudgeText(projectDir: string, name: string): string {
  const p = stateFilePaths(projectDir, name);
  return `You were interrupted (connection lost or the machine slept). Re-read ${shown(projectDir, p.sessionState)}, then continue where you left off and keep ${shown(projectDir, p.workLog)} current.`;
}
