// The new session dialog (DESIGN.md §13): project folder, name, agent profile from the list, task,
// backend, and whether it runs in its own git worktree on a new branch (`session.init`'s worktree,
// DESIGN.md §9). The window never sends a command line, except the shell/custom profile's own field,
// which `session.init` approves as the person typed it. Creates the session, then starts it. An
// error about one field marks that field invalid and is its description (aria-describedby); the
// daemon's own refusals (not a git repository, the branch exists…) are shown as it words them.
// Runs in the renderer.
import { useState } from 'preact/hooks';
import type { SessionInfo } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import type { BackendName, ProfileName } from '../../common/session.js';
import { PROFILE_NAMES, SESSION_NAME_PATTERN } from '../../common/session-names.js';
import { FormDialog } from '../ui/form-dialog.js';

const ERROR_ID = 'new-session-error';
const WORKTREE_HINT_ID = 'new-session-worktree-hint';
const BRANCH_HINT_ID = 'new-session-branch-hint';

export function NewSessionDialog(props: { api: MoriApi; onClose: () => void; onCreated: (s: SessionInfo) => void }) {
  const [projectDir, setProjectDir] = useState('');
  const [name, setName] = useState('');
  const [profile, setProfile] = useState<ProfileName>('claude');
  const [command, setCommand] = useState('');
  const [task, setTask] = useState('');
  const [backend, setBackend] = useState<BackendName>('tmux');
  const [worktree, setWorktree] = useState(false);
  /** The branch the person typed; null while it follows the name (`mori/<name>`, the daemon's default). */
  const [branch, setBranch] = useState<string | null>(null);
  const shownBranch = branch ?? (name ? `mori/${name}` : '');
  const [error, setErrorText] = useState('');
  /** The field the error is about, if it is about one. */
  const [errorField, setErrorField] = useState<'projectDir' | 'name' | 'command' | null>(null);
  const setError = (text: string, field: typeof errorField = null): void => {
    setErrorText(text);
    setErrorField(field);
  };
  /** What marks a field as the one the error is about. */
  const invalid = (field: NonNullable<typeof errorField>) => (error && errorField === field ? { 'aria-invalid': true, 'aria-describedby': ERROR_ID } : {});
  const [busy, setBusy] = useState(false);
  const needsCommand = profile === 'shell' || profile === 'custom';

  const create = async (): Promise<void> => {
    if (!projectDir.trim()) return setError('Which project folder?', 'projectDir');
    if (!SESSION_NAME_PATTERN.test(name)) return setError('A name is lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.', 'name');
    if (needsCommand && !command.trim()) return setError('The shell and custom profiles run the command you give.', 'command');
    setBusy(true);
    setError('');
    const r = await props.api.call('session.init', {
      projectDir: projectDir.trim(),
      name,
      profile,
      backend,
      ...(task.trim() ? { task: task.trim() } : {}),
      ...(needsCommand ? { command: command.trim() } : {}),
      ...(worktree ? { worktree: branch?.trim() ? { branch: branch.trim() } : {} } : {}),
    });
    if (!r.ok) {
      setBusy(false);
      return setError(r.message);
    }
    const started = await props.api.call('start', { session: r.value.id });
    setBusy(false);
    props.onCreated(started.ok ? started.value : r.value);
    if (!started.ok) setError(`Created, but it did not start: ${started.message}`);
    else props.onClose();
  };

  return (
    <FormDialog title="New session" onCancel={props.onClose} onSubmit={() => void create()} error={error} errorId={ERROR_ID} primary={{ label: 'Create and start', disabled: busy }}>
      <label>
        Project folder
        <input value={projectDir} onInput={(e) => setProjectDir((e.target as HTMLInputElement).value)} placeholder="/home/me/code/app" required {...invalid('projectDir')} />
      </label>
      <label>
        Name
        <input value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} placeholder="auth-api" required {...invalid('name')} />
      </label>
      <label>
        Agent
        <select value={profile} onChange={(e) => setProfile((e.target as HTMLSelectElement).value as ProfileName)}>
          {PROFILE_NAMES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      {needsCommand ? (
        <label>
          Command
          <input value={command} onInput={(e) => setCommand((e.target as HTMLInputElement).value)} placeholder="bash" {...invalid('command')} />
        </label>
      ) : null}
      <label>
        Task
        <textarea rows={4} value={task} onInput={(e) => setTask((e.target as HTMLTextAreaElement).value)} placeholder="What the agent should do" />
      </label>
      <fieldset>
        <legend>Git worktree</legend>
        <label class="inline">
          <input type="checkbox" checked={worktree} aria-describedby={WORKTREE_HINT_ID} onChange={(e) => setWorktree((e.target as HTMLInputElement).checked)} />
          Run in its own worktree
        </label>
        <p class="muted" id={WORKTREE_HINT_ID}>
          A new worktree of the project folder's git repository, on a new branch, in $MORI_HOME/worktrees/&lt;repository&gt;-&lt;hash&gt;/{name || '<name>'}. The agent works there; the project folder is left as it is.
        </p>
        {worktree ? (
          <>
            <label>
              Branch
              <input value={shownBranch} onInput={(e) => setBranch((e.target as HTMLInputElement).value)} placeholder="mori/<session name>" aria-describedby={BRANCH_HINT_ID} />
            </label>
            <p class="muted" id={BRANCH_HINT_ID}>
              A new branch from the repository's HEAD; left empty, mori/{name || '<name>'}.
            </p>
          </>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Backend</legend>
        {(['tmux', 'direct'] as const).map((b) => (
          <label class="inline" key={b}>
            <input type="radio" name="backend" value={b} checked={backend === b} onChange={() => setBackend(b)} />
            {b === 'tmux' ? 'tmux (survives the daemon)' : 'direct'}
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}
