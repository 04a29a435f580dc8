// The new session dialog (DESIGN.md §13): project folder, name, agent profile from the list, task,
// backend, how its relaunches take up the conversation (resume: auto, by id, fresh, or the daemon's
// setting), and whether it runs in its own git worktree on a new branch (`session.init`'s worktree,
// DESIGN.md §9). The window never sends a command line, except the shell/custom profile's own field,
// which `session.init` approves as the person typed it. Creates the session, then starts it. An
// error about one field marks that field invalid and is its description (aria-describedby); the
// daemon's own refusals (not a git repository, the branch exists…) are shown as it words them. Its
// form is new-session-model.ts's, its state and calls new-session-store.ts's. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import type { ProfileName, ResumeMode } from '../../common/session.js';
import { PROFILE_NAMES } from '../../common/session-names.js';
import { FormDialog } from '../ui/form-dialog.js';
import { usePane } from '../ui/pane-store.js';
import { needsCommand as commandNeeded, shownBranch as branchShown, type FormField } from './new-session-model.js';
import { NewSessionStore } from './new-session-store.js';

const ERROR_ID = 'new-session-error';
const WORKTREE_HINT_ID = 'new-session-worktree-hint';
const BRANCH_HINT_ID = 'new-session-branch-hint';
const RESUME_HINT_ID = 'new-session-resume-hint';

/** The Resume choices, in the order shown, with their words. */
const RESUME_CHOICES: readonly { value: ResumeMode | 'default'; label: string }[] = [
  { value: 'default', label: 'As in the settings' },
  { value: 'auto', label: 'Auto' },
  { value: 'by-id', label: 'By id' },
  { value: 'fresh', label: 'Fresh' },
];

export function NewSessionDialog(props: { api: MoriApi; onClose: () => void; onCreated: (s: LiveSession) => void }) {
  const [store, { form, error, errorField, busy }] = usePane(() => new NewSessionStore(props.api));
  const { projectDir, name, profile, command, task, backend, resume, worktree } = form;
  const shownBranch = branchShown(form);
  const needsCommand = commandNeeded(form);
  /** What marks a field as the one the error is about. */
  const invalid = (field: FormField) => (error && errorField === field ? { 'aria-invalid': true, 'aria-describedby': ERROR_ID } : {});
  const create = async (): Promise<void> => {
    const done = await store.create();
    if (!done) return;
    props.onCreated(done.session);
    if (done.started) props.onClose();
  };

  return (
    <FormDialog title="New session" onCancel={props.onClose} onSubmit={() => void create()} error={error} errorId={ERROR_ID} primary={{ label: 'Create and start', disabled: busy }}>
      <label>
        Project folder
        <input value={projectDir} onInput={(e) => store.edit({ projectDir: (e.target as HTMLInputElement).value })} placeholder="/home/me/code/app" required {...invalid('projectDir')} />
      </label>
      <label>
        Name
        <input value={name} onInput={(e) => store.edit({ name: (e.target as HTMLInputElement).value })} placeholder="auth-api" required {...invalid('name')} />
      </label>
      <label>
        Agent
        <select value={profile} onChange={(e) => store.edit({ profile: (e.target as HTMLSelectElement).value as ProfileName })}>
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
          <input value={command} onInput={(e) => store.edit({ command: (e.target as HTMLInputElement).value })} placeholder="bash" {...invalid('command')} />
        </label>
      ) : null}
      <label>
        Task
        <textarea rows={4} value={task} onInput={(e) => store.edit({ task: (e.target as HTMLTextAreaElement).value })} placeholder="What the agent should do" />
      </label>
      <label>
        Resume
        <select value={resume} aria-describedby={RESUME_HINT_ID} onChange={(e) => store.edit({ resume: (e.target as HTMLSelectElement).value as ResumeMode | 'default' })}>
          {RESUME_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <p class="muted" id={RESUME_HINT_ID}>
        After a crash, a sleep or a reboot: by id reloads the agent's whole conversation; fresh starts a new one from the state files; auto goes by id while the conversation fills less than a share of the model's window (60 % unless the settings say otherwise).
      </p>
      <fieldset>
        <legend>Git worktree</legend>
        <label class="inline">
          <input type="checkbox" checked={worktree} aria-describedby={WORKTREE_HINT_ID} onChange={(e) => store.edit({ worktree: (e.target as HTMLInputElement).checked })} />
          Run in its own worktree
        </label>
        <p class="muted" id={WORKTREE_HINT_ID}>
          A new worktree of the project folder's git repository, on a new branch, in $MORI_HOME/worktrees/&lt;repository&gt;-&lt;hash&gt;/{name || '<name>'}. The agent works there; the project folder is left as it is.
        </p>
        {worktree ? (
          <>
            <label>
              Branch
              <input value={shownBranch} onInput={(e) => store.edit({ branch: (e.target as HTMLInputElement).value })} placeholder="mori/<session name>" aria-describedby={BRANCH_HINT_ID} />
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
            <input type="radio" name="backend" value={b} checked={backend === b} onChange={() => store.edit({ backend: b })} />
            {b === 'tmux' ? 'tmux (survives the daemon)' : 'direct'}
          </label>
        ))}
      </fieldset>
    </FormDialog>
  );
}
