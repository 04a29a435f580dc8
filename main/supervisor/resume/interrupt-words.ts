// How an interruption reason is said in the resume prompt (`it was interrupted by a reboot`); the
// work log's words are session/reason-words.ts. Pure.
import type { InterruptReason } from '../../../common/session.js';
import type { Interruption } from './resume-prompt.js';

/** The phrase after "interrupted by" in the resume prompt. */
export const REASON_PHRASES: Record<InterruptReason, string> = {
  sleep: 'system sleep',
  network: 'a network loss',
  crash: 'an agent crash',
  'app-exit': 'Mori exiting',
  reboot: 'a reboot',
  'supervisor-stopped': 'the supervisor stopping',
  'usage-limit': "the agent's usage limit",
  asked: 'a stop until the person started it again',
};

export function interruptionFor(reason: InterruptReason, awayMs: number | null): Interruption {
  return { reason: REASON_PHRASES[reason], awayMs };
}
