// Typed events about the state files, for the UI's live view. Pure.

export const STATE_FILES = ['session_state.md', 'environment.md', 'work_log.md', 'session.json'] as const;
export type StateFileName = (typeof STATE_FILES)[number];

/** Someone other than Mori (the agent, an editor, a person) changed a state file. */
export interface StateFileChanged {
  type: 'state.changed';
  stateDir: string;
  file: StateFileName;
  change: 'changed' | 'deleted';
}
