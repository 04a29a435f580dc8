// The Rename and Remove dialogs' state and actions (DESIGN.md §13): the new name checked as `mori
// init` checks one, then `session.rename`; the boxes of Remove, then `session.remove`, with "Remove
// anyway" offered once the daemon refused to remove a worktree with uncommitted or unmerged work.
// Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import type { MoriApi } from '../../common/mori-api.js';
import { SESSION_NAME_PATTERN } from '../../common/session-names.js';
import { PaneStore } from '../ui/pane-store.js';
import { removedText, renameParts } from './session-manage-model.js';

export interface RenameState {
  name: string;
  error: string;
  busy: boolean;
}

export class RenameStore extends PaneStore<RenameState> {
  /** The name as it is, without a remote's `host:`. */
  readonly current: string;
  readonly host: string;

  constructor(
    private readonly api: MoriApi,
    private readonly session: LiveSession,
  ) {
    const { host, name } = renameParts(session.name);
    super({ name, error: '', busy: false });
    this.current = name;
    this.host = host;
  }

  /** Nothing to read: the dialog starts from the session's name. */
  open(): void {}

  setName(name: string): void {
    this.set({ name });
  }

  /** Renames; the status line's words when done (or when the name is unchanged: ''), null when refused. */
  async rename(): Promise<string | null> {
    const { name } = this.state;
    if (!SESSION_NAME_PATTERN.test(name)) {
      this.set({ error: 'A name is lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.' });
      return null;
    }
    if (name === this.current) return '';
    this.set({ busy: true, error: '' });
    const r = await this.api.call('session.rename', { session: this.session.id, name });
    this.set({ busy: false });
    if (!r.ok) {
      this.set({ error: r.message });
      return null;
    }
    return `Renamed ${this.session.name} to ${r.value.name}.`;
  }
}

export interface RemoveState {
  deleteState: boolean;
  removeWorktree: boolean;
  error: string;
  /** The daemon refused to remove the worktree (uncommitted or unmerged work): "Remove anyway" is offered. */
  refused: boolean;
  busy: boolean;
}

export class RemoveStore extends PaneStore<RemoveState> {
  constructor(
    private readonly api: MoriApi,
    private readonly session: LiveSession,
  ) {
    super({ deleteState: false, removeWorktree: false, error: '', refused: false, busy: false });
  }

  /** Nothing to read: the boxes start unticked. */
  open(): void {}

  setDeleteState(deleteState: boolean): void {
    this.set({ deleteState });
  }

  /** Ticking the worktree's box again takes back a refusal about it. */
  setRemoveWorktree(removeWorktree: boolean): void {
    this.set({ removeWorktree, refused: false, error: '' });
  }

  /** Removes; the status line's words when done, null when refused. */
  async remove(force: boolean): Promise<string | null> {
    const { deleteState, removeWorktree } = this.state;
    this.set({ busy: true, error: '', refused: false });
    const r = await this.api.call('session.remove', { session: this.session.id, deleteState, ...(removeWorktree ? { removeWorktree, force } : {}) });
    this.set({ busy: false });
    if (!r.ok) {
      this.set({ refused: removeWorktree && !force && r.code === 'conflict', error: r.message });
      return null;
    }
    return removedText(r.value);
  }
}
