// The new session form (DESIGN.md §9, §13): its fields, the branch it shows (`mori/<name>` while the
// person typed none), and the `session.init` request it makes, or the error and the field it is about.
// The window never sends a command line, except the shell/custom profile's own field. Pure. Runs in
// the renderer.
import type { IpcParams } from '../../common/ipc.js';
import type { BackendName, ProfileName, ResumeMode } from '../../common/session.js';
import { SESSION_NAME_PATTERN } from '../../common/session-names.js';

export interface NewSessionForm {
  projectDir: string;
  name: string;
  profile: ProfileName;
  command: string;
  task: string;
  backend: BackendName;
  /** How its relaunches take up the conversation; `default`: the daemon's setting. */
  resume: ResumeMode | 'default';
  worktree: boolean;
  /** The branch the person typed; null while it follows the name (`mori/<name>`, the daemon's default). */
  branch: string | null;
}

export type FormField = 'projectDir' | 'name' | 'command';

export const EMPTY_FORM: NewSessionForm = { projectDir: '', name: '', profile: 'claude', command: '', task: '', backend: 'tmux', resume: 'default', worktree: false, branch: null };

/** The profiles that run the command the person gives. */
export const needsCommand = (f: NewSessionForm): boolean => f.profile === 'shell' || f.profile === 'custom';

/** The branch the Branch field shows. */
export const shownBranch = (f: NewSessionForm): string => f.branch ?? (f.name ? `mori/${f.name}` : '');

/** The `session.init` request the form makes, or what is wrong with it and where. */
export function initRequest(f: NewSessionForm): { ok: true; params: IpcParams<'session.init'> } | { ok: false; error: string; field: FormField } {
  if (!f.projectDir.trim()) return { ok: false, error: 'Which project folder?', field: 'projectDir' };
  if (!SESSION_NAME_PATTERN.test(f.name)) return { ok: false, error: 'A name is lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.', field: 'name' };
  const command = needsCommand(f);
  if (command && !f.command.trim()) return { ok: false, error: 'The shell and custom profiles run the command you give.', field: 'command' };
  return {
    ok: true,
    params: {
      projectDir: f.projectDir.trim(),
      name: f.name,
      profile: f.profile,
      backend: f.backend,
      ...(f.task.trim() ? { task: f.task.trim() } : {}),
      ...(command ? { command: f.command.trim() } : {}),
      ...(f.resume !== 'default' ? { resume: f.resume } : {}),
      ...(f.worktree ? { worktree: f.branch?.trim() ? { branch: f.branch.trim() } : {} } : {}),
    },
  };
}
