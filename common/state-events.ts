// Typed events about the state files, for the UI's live view. Pure.
import type { StateFileName } from './state-files.js';

/** Someone other than Mori (the agent, an editor, a person) changed a state file. */
export interface StateFileChanged {
  type: 'state.changed';
  stateDir: string;
  file: StateFileName;
  change: 'changed' | 'deleted';
}
