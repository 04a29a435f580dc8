// The header advice's actions (DESIGN.md §13): Resume now, Don't resume and Restart through the
// daemon, a reply typed to the agent's question, the install command copied; each says how it went
// on the header's status line. Runs in the renderer.
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';

export interface AdviceState {
  /** The reply box's text. */
  reply: string;
}

export class AdviceStore extends PaneStore<AdviceState> {
  constructor(
    private readonly api: MoriApi,
    /** The header's status line. */
    private readonly status: (words: string) => void,
  ) {
    super({ reply: '' });
  }

  /** Nothing to read: the advice comes with the session. */
  open(): void {}

  setReply(reply: string): void {
    this.set({ reply });
  }

  async call(session: string, method: 'limit.resume-now' | 'limit.dont-resume' | 'start', words: string): Promise<void> {
    this.status(`${words}…`);
    const r = await this.api.call(method, { session });
    this.status(r.ok ? '' : `${words} failed: ${r.message}`);
  }

  /** Types `text` and Enter to the agent. */
  async send(session: string, text: string): Promise<void> {
    const r = await this.api.call('send', { session, text, enter: true });
    this.status(r.ok ? '' : `Not sent: ${r.message}`);
    if (r.ok) this.set({ reply: '' });
  }

  copy(text: string): void {
    void navigator.clipboard.writeText(text).then(
      () => this.status('Copied the install command'),
      () => this.status('Could not copy: select the command and copy it'),
    );
  }
}
