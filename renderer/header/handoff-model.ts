// "Continue with…", decided (DESIGN.md §13): which agents the selected session can be handed to and
// what the status line says after it. Pure. Runs in the renderer.
import { PROFILE_NAMES } from '../../common/session-names.js';

type ProfileName = (typeof PROFILE_NAMES)[number];

/** The profiles that run a command the person gives: a hand-off to them needs one approved apart, so the window offers the agents only. */
const RUNS_A_COMMAND: readonly ProfileName[] = ['shell', 'custom'];

/** The agents a session running `current` can continue with: every agent profile but its own. */
export function handoffChoices(current: string | undefined): ProfileName[] {
  return PROFILE_NAMES.filter((p) => p !== current && !RUNS_A_COMMAND.includes(p));
}

/** What the status line says once the session was handed over. */
export function handedOffText(name: string, from: string | undefined, to: string): string {
  return `${name} continues with ${to}${from ? `; ${from}'s conversation is kept` : ''}.`;
}
