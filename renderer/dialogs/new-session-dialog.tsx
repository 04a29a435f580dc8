// The new session dialog (DESIGN.md §13): project folder (typed, or one of the recent folders: those
// of the sessions the window knows), name (made a slug as it is typed, the result shown under it),
// agent profile from the list, task, backend, how its relaunches take up the conversation (resume:
// auto, by id, fresh, or the daemon's setting), whether it runs in its own git worktree on a new
// branch (`session.init`'s worktree, DESIGN.md §9), and in a sandbox (new-session-sandbox.tsx). The window never sends a command line, except the
// shell/custom profile's own field, which `session.init` approves as the person typed it. Creates the
// session, then starts it. Every field in error says so under itself at once (marked invalid, the
// error its description), the first of them taking the keyboard; the daemon's own refusals (not a git
// repository, the branch exists…) are shown at the bottom as it words them. Its form is
// new-session-model.ts's, its state and calls new-session-store.ts's. Runs in the renderer.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import type { ProfileName, ResumeMode } from '../../common/session.js';
import { PROFILE_NAMES } from '../../common/session-names.js';
import { FormDialog } from '../ui/form-dialog.js';
import { usePane } from '../ui/pane-store.js';
import { Shown } from '../ui/shown-text.js';
import { needsCommand as commandNeeded, recentFolders, shownBranch as branchShown, slugName, type FormField } from './new-session-model.js';
import { NewSessionStore } from './new-session-store.js';
import { SandboxChoice } from './new-session-sandbox.js';
import './new-session-dialog.css';

const ERROR_ID = 'new-session-error';
const WORKTREE_HINT_ID = 'new-session-worktree-hint';
const BRANCH_HINT_ID = 'new-session-branch-hint';
const RESUME_HINT_ID = 'new-session-resume-hint';
const NAME_PREVIEW_ID = 'new-session-name-preview';
const fieldId = (f: FormField): string => `new-session-${f}`;
const fieldErrorId = (f: FormField): string => `new-session-${f}-error`;
const FIELDS: readonly FormField[] = ['projectDir', 'name', 'command'];

/** The Resume choices, in the order shown, with their words. */
const RESUME_CHOICES: readonly { value: ResumeMode | 'default'; label: string }[] = [
  { value: 'default', label: 'As in the settings' },
  { value: 'auto', label: 'Auto' },
  { value: 'by-id', label: 'By id' },
  { value: 'fresh', label: 'Fresh' },
];

/** A field with its error under it (outside its label, so the error is its description, not its name). */
function Field(props: { error: string | undefined; field: FormField; children: ComponentChildren; after?: ComponentChildren }) {
  return (
    <div class="new-session-field">
      {props.children}
      {props.error ? (
        <p class="field-error error" id={fieldErrorId(props.field)}>
          {props.error}
        </p>
      ) : null}
      {props.after}
    </div>
  );
}

export function NewSessionDialog(props: { api: MoriApi; sessions: readonly LiveSession[]; onClose: () => void; onCreated: (s: LiveSession) => void }) {
  const [store, { form, error, errors, busy }] = usePane(() => new NewSessionStore(props.api));
  const { projectDir, name, profile, command, task, backend, resume, worktree } = form;
  const shownBranch = branchShown(form);
  const needsCommand = commandNeeded(form);
  const slug = slugName(name);
  const recent = recentFolders(props.sessions);
  /** Counts the Creates refused for the fields: each one sends the keyboard to the first field in error. */
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    const first = FIELDS.find((f) => errors[f]);
    if (refused > 0 && first) document.getElementById(fieldId(first))?.focus();
  }, [refused]);
  /** What marks a field as one in error, and what describes it. */
  const described = (field: FormField, ...more: string[]) => {
    const ids = [...more, ...(errors[field] ? [fieldErrorId(field)] : [])];
    return { id: fieldId(field), ...(errors[field] ? { 'aria-invalid': true } : {}), ...(ids.length > 0 ? { 'aria-describedby': ids.join(' ') } : {}) };
  };
  const create = async (): Promise<void> => {
    const done = await store.create();
    if (!done) {
      if (FIELDS.some((f) => store.state.errors[f])) setRefused((n) => n + 1);
      return;
    }
    props.onCreated(done.session);
    if (done.started) props.onClose();
  };

  return (
    <FormDialog title="New session" onCancel={props.onClose} onSubmit={() => void create()} error={error} errorId={ERROR_ID} primary={{ label: 'Create and start', disabled: busy }}>
      <Field
        field="projectDir"
        error={errors.projectDir}
        after={
          recent.length > 0 ? (
            <div class="recent-folders" role="group" aria-label="Recent folders">
              <span class="field-hint">Recent:</span>
              {recent.map((dir) => (
                <button type="button" key={dir} aria-label={`Use ${dir}`} title={dir} aria-pressed={projectDir === dir} onClick={() => store.edit({ projectDir: dir })}>
                  <Shown text={dir.split(/[\\/]/).filter(Boolean).pop() ?? dir} />
                </button>
              ))}
            </div>
          ) : null
        }
      >
        <label>
          Project folder
          <input value={projectDir} onInput={(e) => store.edit({ projectDir: (e.target as HTMLInputElement).value })} placeholder="Path of the project's folder" {...described('projectDir')} />
        </label>
      </Field>
      <Field
        field="name"
        error={errors.name}
        after={
          <p class="field-hint" id={NAME_PREVIEW_ID} aria-live="polite">
            {slug ? (
              <>
                Named <code>{slug}</code>; its state folder .mori/{slug}/
              </>
            ) : (
              'Lowercase letters, digits, ".", "_" and "-": what you type becomes one.'
            )}
          </p>
        }
      >
        <label>
          Name
          <input value={name} onInput={(e) => store.edit({ name: (e.target as HTMLInputElement).value })} placeholder="e.g. Fix refunds" {...described('name', NAME_PREVIEW_ID)} />
        </label>
      </Field>
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
        <Field field="command" error={errors.command}>
          <label>
            Command
            <input value={command} onInput={(e) => store.edit({ command: (e.target as HTMLInputElement).value })} placeholder="e.g. bash, or npm run dev" {...described('command')} />
          </label>
        </Field>
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
          A new worktree of the project folder's git repository, on a new branch, in $MORI_HOME/worktrees/&lt;repository&gt;-&lt;hash&gt;/{slug || '<name>'}. The agent works there; the project folder is left as it is.
        </p>
        {worktree ? (
          <>
            <label>
              Branch
              <input value={shownBranch} onInput={(e) => store.edit({ branch: (e.target as HTMLInputElement).value })} placeholder="mori/<session name>" aria-describedby={BRANCH_HINT_ID} />
            </label>
            <p class="muted" id={BRANCH_HINT_ID}>
              A new branch from the repository's HEAD; left empty, mori/{slug || '<name>'}.
            </p>
          </>
        ) : null}
      </fieldset>
      <SandboxChoice on={form.sandbox} network={form.network} onChange={(patch) => store.edit(patch)} />
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
