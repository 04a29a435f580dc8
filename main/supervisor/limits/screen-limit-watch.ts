// The screen as a source of usage limits (DESIGN.md §4): each screen the activity monitor reads is
// looked at from the latest turn start down (as the activity patterns are), and a limit line found
// there is reported once while it stays on screen. A line that went away and comes back (a new turn
// met the limit again) is new. At the resume, whether the line is still shown. Runs in the supervisor's process; pure but for the one it remembers.
import type { ProfileName } from '../../../common/session.js';
import type { ScreenPatterns } from '../../agents/profile.js';
import { PROFILES } from '../../agents/profiles.js';
import { currentTurnText } from '../../agents/screen-activity.js';
import { screenUsageLimit } from '../../agents/usage-limit/limit-detect.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';

/** The machine's time zone: reset times the agent prints without a zone are in it. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Whether the screen's current turn still shows one of the profile's limit lines. At the limit's
 * resume, an agent at its prompt without one went on by itself (opencode's own retry at the reset,
 * answered) and takes no nudge.
 */
export function showsLimit(profile: ProfileName, patterns: ScreenPatterns, screen: string): boolean {
  // The reset time is not wanted here: any clock and zone do.
  return screenUsageLimit(PROFILES[profile], currentTurnText(patterns, screen), 0, 'UTC') !== null;
}

export class ScreenLimitWatch {
  /** The limit line on screen at the last read, reported already; null when none was. */
  private shown: string | null = null;

  constructor(
    private readonly profile: ProfileName,
    private readonly patterns: ScreenPatterns,
    private readonly zone: string = localZone(),
  ) {}

  /** The limit the screen shows now, when it is not the one already reported; else null. */
  observe(screen: string, nowMs: number): UsageLimitSignal | null {
    const signal = screenUsageLimit(PROFILES[this.profile], currentTurnText(this.patterns, screen), nowMs, this.zone);
    const before = this.shown;
    this.shown = signal?.text ?? null;
    return signal !== null && signal.text !== before ? signal : null;
  }
}
