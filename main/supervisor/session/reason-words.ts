// How an interruption reason is said in work-log entries (`SESSION INTERRUPTED - system sleep`,
// `SESSION RESUMED - after usage limit`); the resume prompt's phrases are resume/interrupt-words.ts.
// Pure.
import type { InterruptReason } from '../../../common/session.js';

/** The words of work-log entries, after `SESSION INTERRUPTED - ` / `SESSION RESUMED - `. */
export const REASON_WORDS: Record<InterruptReason, string> = {
  sleep: 'system sleep',
  network: 'network lost',
  crash: 'agent crashed',
  'app-exit': 'Mori exited',
  reboot: 'reboot',
  'supervisor-stopped': 'supervisor stopped',
  'usage-limit': 'after usage limit',
  asked: 'started again on request',
};
