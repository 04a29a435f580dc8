// Which button of the session's view is its primary one (filled; secondary buttons are bordered, quiet
// ones bare): the advice's action that fixes what needs the person, else the header's Start or Resume
// when the agent does not run, else none (Verify, Stop… and More actions stay secondary). Pure. Runs in
// the renderer.
import type { HeaderAction } from '../../common/session-view.js';

/** The actions that fix what the advice says; an advice offers at most one of them. */
const FIXES: readonly HeaderAction[] = ['reply', 'review-trust', 'resume-now', 'restart'];

/** The advice's primary action, or null when none of its actions fixes it (Copy, Open the file, Don't resume). */
export function advicePrimary(actions: readonly HeaderAction[]): HeaderAction | null {
  return FIXES.find((a) => actions.includes(a)) ?? null;
}

/** Whether the header's Start (or Resume) is the view's primary action: the agent is not running and no advice offers a fix. */
export function startIsPrimary(running: boolean, adviceActions: readonly HeaderAction[] | null): boolean {
  return !running && advicePrimary(adviceActions ?? []) === null;
}
