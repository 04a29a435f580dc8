// Activity from the screen (DESIGN.md §4): the profile's regexes over the headless mirror's text.
// Pure: the supervisor passes the screen text, gets an activity, and debounces it.
import type { AgentActivity } from '../../common/agent-activity.js';
import type { AgentProfile, ScreenPatterns } from './profile.js';

/** The part of the screen that shows the current turn: from the last `turnStart` line down, blank tail dropped. */
export function currentTurnText(patterns: ScreenPatterns, screenText: string): string {
  const lines = screenText.split(/\r?\n/).map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  let from = 0;
  if (patterns.turnStart !== undefined) {
    for (let i = lines.length - 1; i >= 0; i--) {
      if (patterns.turnStart.test(lines[i] as string)) {
        from = i;
        break;
      }
    }
  }
  return lines.slice(from).join('\n');
}

const anyMatch = (res: readonly RegExp[], text: string): boolean => res.some((re) => re.test(text));

/**
 * What the agent is doing, by the first category whose pattern matches the current turn:
 * needs-input (a person must answer) before retrying (the agent works on its own: its retry
 * countdown names the error it retries, so it comes before error) before error (a failed request
 * still shows the busy footer a moment) before working before waiting; nothing matched → unknown.
 */
export function detectActivity(profile: Pick<AgentProfile, 'patterns'>, screenText: string): AgentActivity {
  const p = profile.patterns;
  const text = currentTurnText(p, screenText);
  if (text === '') return 'unknown';
  if (anyMatch(p.needsInput, text)) return 'needs-input';
  if (p.retrying !== undefined && anyMatch(p.retrying, text)) return 'working';
  if (anyMatch(p.error, text)) return 'error';
  if (anyMatch(p.working, text)) return 'working';
  if (anyMatch(p.waiting, text)) return 'waiting';
  return 'unknown';
}
