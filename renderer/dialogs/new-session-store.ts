// The new session dialog's state and actions (DESIGN.md §13): the form as typed, each field's error
// (all of them, shown once Create was tried and updated as the person types), the daemon's own
// refusal (not a git repository, the branch exists…) as it words it, the sandbox's choice as the
// daemon's settings have it until changed, and Create: `session.init`, then `start`. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { EMPTY_FORM, formErrors, initRequest, type FormErrors, type NewSessionForm } from './new-session-model.js';

export interface NewSessionState {
  form: NewSessionForm;
  /** The daemon's refusal, or a start that failed; '' when none. */
  error: string;
  /** What is wrong with each field, once Create was tried. */
  errors: FormErrors;
  /** Create was tried: from then on the fields' errors follow the typing. */
  tried: boolean;
  busy: boolean;
}

export class NewSessionStore extends PaneStore<NewSessionState> {
  constructor(private readonly api: MoriApi) {
    super({ form: EMPTY_FORM, error: '', errors: {}, tried: false, busy: false });
  }

  /** The form starts empty, its sandbox choice as the daemon's settings say (off when they cannot be read). */
  open(): void {
    void this.readSettings();
  }

  private async readSettings(): Promise<void> {
    const current = this.newRead();
    const r = await this.api.call('settings.get', {});
    if (!r.ok || !current() || this.sandboxEdited) return;
    this.set({ form: { ...this.state.form, sandbox: r.value.sandbox.default, network: r.value.sandbox.network } });
  }

  /** The person chose the sandbox before the settings came: theirs stands. */
  private sandboxEdited = false;

  edit(patch: Partial<NewSessionForm>): void {
    if (patch.sandbox !== undefined || patch.network !== undefined) this.sandboxEdited = true;
    const form = { ...this.state.form, ...patch };
    this.set({ form, ...(this.state.tried ? { errors: formErrors(form) } : {}) });
  }

  /** Creates the session and starts it: the session once created (started or not), null when it was not. */
  async create(): Promise<{ session: LiveSession; started: boolean } | null> {
    const req = initRequest(this.state.form);
    if (!req.ok) {
      this.set({ errors: req.errors, tried: true, error: '' });
      return null;
    }
    this.set({ busy: true, error: '', errors: {}, tried: true });
    const r = await this.api.call('session.init', req.params);
    if (!r.ok) {
      this.set({ busy: false, error: r.message });
      return null;
    }
    const started = await this.api.call('start', { session: r.value.id });
    this.set({ busy: false, ...(started.ok ? {} : { error: `Created, but it did not start: ${started.message}` }) });
    return { session: started.ok ? started.value : r.value, started: started.ok };
  }
}
