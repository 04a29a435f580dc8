// The words of a SESSION RESUMED work-log entry: why it was interrupted, how long it was away, what
// the checks found. Pure.
import type { InterruptReason } from '../../../common/session.js';
import { REASON_WORDS } from '../session/reason-words.js';
import { formatDuration } from './resume-prompt.js';

export function resumeWords(reason: InterruptReason, context: { awayMs: number | null; checks: string | null } | null): string {
  const away = context?.awayMs != null ? ` (away ${formatDuration(context.awayMs)})` : '';
  const checks = context?.checks ? `; ${context.checks}` : '';
  return `${REASON_WORDS[reason]}${away}${checks}`;
}
