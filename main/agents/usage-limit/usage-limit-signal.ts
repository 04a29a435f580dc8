// What an agent's usage limit looks like to the supervisor (DESIGN.md §4): one signal, whichever
// source saw it first (the agent's hook, its transcript, its screen). Detection lives beside this
// file (reset-time.ts, limit-detect.ts); the supervisor's limit planner (supervisor/limits/) turns a
// signal into the `limited` state and one resume after the reset. Pure types.
import type { ProfileName } from '../../../common/session.js';

/** Where a usage limit was read from; the first source to report one wins, later ones only refine the reset time. */
export type UsageLimitSource = 'hook' | 'transcript' | 'screen';

export interface UsageLimitSignal {
  profile: ProfileName;
  source: UsageLimitSource;
  /** When the limit resets (epoch ms), or null when the agent said it is limited but not until when. */
  resetAtMs: number | null;
  /** The agent's own words (one line, trimmed to 200 characters), for the work log and the notification. */
  text: string;
}
