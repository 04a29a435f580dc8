// An agent's usage-limit dialog (DESIGN.md §4, "Usage limits"): Gemini CLI 0.61.0 shows its limit in a
// dialog that waits for a choice ("1. Keep trying / 2. Stop", "1. Switch to <model> / 2. Stop"), and
// while it is up the agent takes no typed text. The resume after the limit closes it with Stop (a
// model switch is the person's choice, and Keep trying would resend the refused turn instead of the
// nudge), which leaves the agent at its prompt. This file finds the key that picks Stop. Pure.
import type { AgentProfile } from '../profile.js';
import { currentTurnText } from '../screen-activity.js';
import { isLimitLine } from './limit-detect.js';

/**
 * Lines below the limit line the dialog's choices can be on: Gemini's dialog puts its message (up to
 * five lines) and its choices (up to three) within a dozen; anything further down is not its choice.
 */
const DIALOG_LINES = 16;

/**
 * The key that closes the usage-limit dialog `screen` shows with its Stop choice, or null when no such
 * dialog is up: the profile's limit line in the current turn, with the Stop choice below it.
 */
export function limitDialogStopKey(profile: Pick<AgentProfile, 'name' | 'patterns' | 'limits'>, screen: string): string | null {
  const stop = profile.patterns.limitDialogStop;
  if (stop === undefined) return null;
  const lines = currentTurnText(profile.patterns, screen).split('\n');
  let limitAt = -1;
  for (let i = lines.length - 1; i >= 0 && limitAt < 0; i--) if (isLimitLine(profile, lines[i] ?? '')) limitAt = i;
  if (limitAt < 0) return null;
  for (const line of lines.slice(limitAt + 1, limitAt + 1 + DIALOG_LINES)) {
    const key = stop.exec(line)?.[1];
    if (key !== undefined && /^[1-9]$/.test(key)) return key;
  }
  return null;
}
