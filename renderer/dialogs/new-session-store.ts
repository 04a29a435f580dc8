// The new session dialog's state and actions (DESIGN.md §13): the form as typed, the error and the
// field it is about, and Create: `session.init`, then `start`. The daemon's own refusals (not a git
// repository, the branch exists…) are shown as it words them. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { EMPTY_FORM, initRequest, type FormField, type NewSessionForm } from './new-session-model.js';

export interface NewSessionState {
  form: NewSessionForm;
  error: string;
  /** The field the error is about, if it is about one. */
  errorField: FormField | null;
  busy: boolean;
}

export class NewSessionStore extends PaneStore<NewSessionState> {
  constructor(private readonly api: MoriApi) {
    super({ form: EMPTY_FORM, error: '', errorField: null, busy: false });
  }

  /** Nothing to read: the form starts empty. */
  open(): void {}

  edit(patch: Partial<NewSessionForm>): void {
    this.set({ form: { ...this.state.form, ...patch } });
  }

  /** Creates the session and starts it: the session once created (started or not), null when it was not. */
  async create(): Promise<{ session: LiveSession; started: boolean } | null> {
    const req = initRequest(this.state.form);
    if (!req.ok) {
      this.set({ error: req.error, errorField: req.field });
      return null;
    }
    this.set({ busy: true, error: '', errorField: null });
    const r = await this.api.call('session.init', req.params);
    if (!r.ok) {
      this.set({ busy: false, error: r.message, errorField: null });
      return null;
    }
    const started = await this.api.call('start', { session: r.value.id });
    this.set({ busy: false, ...(started.ok ? {} : { error: `Created, but it did not start: ${started.message}`, errorField: null }) });
    return { session: started.ok ? started.value : r.value, started: started.ok };
  }
}
