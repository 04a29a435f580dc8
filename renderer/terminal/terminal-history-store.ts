// Earlier terminal output's state and reads (DESIGN.md §6): the session's transcript read backwards a
// page at a time, each page from its first whole line, as plain text (escape sequences removed).
// Runs in the renderer.
import type { MoriApi } from '../../common/mori-api.js';
import { PaneStore } from '../ui/pane-store.js';
import { plainText } from './plain-text.js';

export interface TerminalHistoryState {
  /** The output read so far, oldest first. */
  text: string;
  status: string;
}

export class TerminalHistoryStore extends PaneStore<TerminalHistoryState> {
  /** Bytes read back from the transcript's end. */
  private read = 0;
  private more = true;
  private loading = false;

  constructor(
    private readonly api: MoriApi,
    private readonly sessionId: string,
  ) {
    super({ text: '', status: 'Loading…' });
  }

  /** The first page is read by the view, which then opens it at its end. */
  open(): void {}

  /**
   * Reads the page before what is shown; `beforeShow` runs just before it is shown (the view keeps its
   * scroll position from there). False when there was nothing to read or the read failed.
   */
  async older(beforeShow: () => void): Promise<boolean> {
    if (this.loading || !this.more) return false;
    this.loading = true;
    const r = await this.api.call('transcript.read', { session: this.sessionId, beforeEnd: this.read });
    this.loading = false;
    if (!r.ok) {
      this.set({ status: `Cannot read the transcript: ${r.message}` });
      return false;
    }
    const reachesStart = this.read + r.value.bytes >= r.value.totalBytes;
    // A page that does not reach the start may begin mid-line (or mid-character): it is shown from its
    // first newline, and the part before comes whole with the next page.
    const cut = reachesStart ? 0 : r.value.data.indexOf('\n') + 1;
    const data = r.value.data.slice(cut);
    this.read += r.value.bytes - new TextEncoder().encode(r.value.data.slice(0, cut)).length;
    this.more = !reachesStart;
    beforeShow();
    this.set({
      text: plainText(data) + this.state.text,
      status: this.more ? '' : r.value.totalBytes === 0 ? 'No output recorded yet.' : 'The start of the transcript.',
    });
    return true;
  }
}
