// How an interruption reason is said: in work-log entries (`SESSION INTERRUPTED - system sleep`) and
// in the resume prompt (`it was interrupted by a reboot`). Pure.
import type { InterruptReason } from '../../../common/session.js';
import type { Interruption } from './resume-prompt.js';

/** The words of work-log entries, after `SESSION INTERRUPTED - ` / `SESSION RESUMED - `. */
export const REASON_WORDS: Record<InterruptReason, string> = {
  sleep: 'system sleep',
  network: 'network lost',
  crash: 'agent crashed',
  'app-exit': 'Mori exited',
  reboot: 'reboot',
  'supervisor-stopped': 'supervisor stopped',
  'usage-limit': 'after usage limit',
};

/** The phrase after "interrupted by" in the resume prompt. */
export const REASON_PHRASES: Record<InterruptReason, string> = {
  sleep: 'system sleep',
  network: 'a network loss',
  crash: 'an agent crash',
  'app-exit': 'Mori exiting',
  reboot: 'a reboot',
  'supervisor-stopped': 'the supervisor stopping',
  'usage-limit': "the agent's usage limit",
};

export function interruptionFor(reason: InterruptReason, awayMs: number | null): Interruption {
  return { reason: REASON_PHRASES[reason], awayMs };
}
