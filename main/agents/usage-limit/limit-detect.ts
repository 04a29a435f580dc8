// Finds an agent's usage limit on its screen (DESIGN.md §4): the words each CLI prints when its
// provider refuses for quota, with the reset time read by reset-time.ts. Pure.
import type { ProfileName } from '../../../common/session.js';
import { parseResetTime } from './reset-time.js';
import type { UsageLimitSignal } from './usage-limit-signal.js';

/** The lines that say the agent hit its usage limit, per CLI. */
const LIMIT_LINES: Partial<Record<ProfileName, RegExp>> = {
  claude: /(?:hit your (?:session |weekly )?limit|usage limit reached|limit reached\s*[·∙]\s*resets)/i,
};

/** Longest text a signal carries: one line for the log and the notification. */
const MAX_TEXT = 200;

/** The usage limit the screen shows, or null. `screen` is the visible text, newest line last. */
export function screenUsageLimit(profile: ProfileName, screen: string, nowMs: number, localZone: string): UsageLimitSignal | null {
  const re = LIMIT_LINES[profile];
  if (re === undefined) return null;
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (!re.test(line)) continue;
    const text = line.trim().slice(0, MAX_TEXT);
    return { profile, source: 'screen', resetAtMs: parseResetTime(line, nowMs, localZone), text };
  }
  return null;
}
