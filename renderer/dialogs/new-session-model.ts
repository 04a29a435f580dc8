// The new session form (DESIGN.md §9, §13): its fields, the session name made from what the person
// typed (a slug: "Fix refunds!" → `fix-refunds`), the branch it shows (`mori/<name>` while the person
// typed none), the project folders of the sessions the window knows (recent folders), every field's
// error at once, and the `session.init` request it makes. The window never sends a command line,
// except the shell/custom profile's own field. Pure. Runs in the renderer.
import type { IpcParams, LiveSession } from '../../common/ipc.js';
import type { BackendName, ProfileName, ResumeMode, SessionSandbox } from '../../common/session.js';
import { sessionNameProblem } from '../../common/session-names.js';

export interface NewSessionForm {
  projectDir: string;
  /** The name as typed; the session is named `slugName(name)`. */
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
  /** Its agent in a sandbox, and how that reaches the network; both from the daemon's settings until changed. */
  sandbox: boolean;
  network: SessionSandbox['network'];
}

export type FormField = 'projectDir' | 'name' | 'command';
export type FormErrors = Partial<Record<FormField, string>>;

export const EMPTY_FORM: NewSessionForm = { projectDir: '', name: '', profile: 'claude', command: '', task: '', backend: 'tmux', resume: 'default', worktree: false, branch: null, sandbox: false, network: 'full' };

/** A session name's longest (SESSION_NAME_PATTERN: a first character and up to 63 more). */
const NAME_MAX = 64;
/** Recent folders offered: a handful to pick from, not a second session list. */
const RECENT_MAX = 5;

/**
 * The session name made from what was typed: lowercase, each run of other characters (spaces, "/",
 * "!") one "-", no leading ".", "_" or "-", no trailing "-", at most 64 characters. '' when nothing
 * of it is usable.
 */
export function slugName(typed: string): string {
  return typed
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, NAME_MAX)
    .replace(/-+$/, '');
}

/** The profiles that run the command the person gives. */
export const needsCommand = (f: NewSessionForm): boolean => f.profile === 'shell' || f.profile === 'custom';

/** The branch the Branch field shows. */
export const shownBranch = (f: NewSessionForm): string => f.branch ?? (slugName(f.name) ? `mori/${slugName(f.name)}` : '');

/**
 * The project folders of this host's sessions the window knows, in the list's order, each once; a
 * session's own worktree is not one, nor a remote's folder (its name is `host:name`, a colon no
 * local name has).
 */
export function recentFolders(sessions: readonly Pick<LiveSession, 'name' | 'projectDir' | 'branch'>[]): string[] {
  const dirs = sessions.filter((s) => s.branch === undefined && !s.name.includes(':')).flatMap((s) => (s.projectDir ? [s.projectDir] : []));
  return [...new Set(dirs)].slice(0, RECENT_MAX);
}

/** What is wrong with each field, all of them at once; {} when nothing is. */
export function formErrors(f: NewSessionForm): FormErrors {
  const errors: FormErrors = {};
  if (!f.projectDir.trim()) errors.projectDir = 'Which project folder? Type its path or choose a recent one.';
  const slug = slugName(f.name);
  if (!f.name.trim()) errors.name = 'Which name? It names the session and its state folder.';
  else if (!slug) errors.name = 'Use some letters or digits: the name is made of them.';
  else {
    const problem = sessionNameProblem(slug);
    if (problem) errors.name = `Not as "${slug}": ${problem}.`;
  }
  if (needsCommand(f) && !f.command.trim()) errors.command = 'The shell and custom profiles run the command you give.';
  return errors;
}

/** The `session.init` request the form makes, or what is wrong with each field. */
export function initRequest(f: NewSessionForm): { ok: true; params: IpcParams<'session.init'> } | { ok: false; errors: FormErrors } {
  const errors = formErrors(f);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const command = needsCommand(f);
  return {
    ok: true,
    params: {
      projectDir: f.projectDir.trim(),
      name: slugName(f.name),
      profile: f.profile,
      backend: f.backend,
      ...(f.task.trim() ? { task: f.task.trim() } : {}),
      ...(command ? { command: f.command.trim() } : {}),
      ...(f.resume !== 'default' ? { resume: f.resume } : {}),
      ...(f.worktree ? { worktree: f.branch?.trim() ? { branch: f.branch.trim() } : {} } : {}),
      sandbox: f.sandbox,
      ...(f.sandbox ? { sandboxNetwork: f.network } : {}),
    },
  };
}
