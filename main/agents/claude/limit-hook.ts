// Reads Claude Code's usage limit from its hook that reports a turn ended by an API error (its hooks
// capability's usageLimit, claude/hooks.ts). Pure. The payload is hostile input: validated, every string capped before it is read.
//
// Claude Code 2.1.332's StopFailure input (its zod schema, read from bin/claude.exe):
// `{hook_event_name: "StopFailure", error: "authentication_failed" | … | "rate_limit" | … ,
//   error_details?: string, last_assistant_message?: string}` beside the common fields
// (session_id, transcript_path, cwd). `error_details` is the typed kind, `usage_limit_reached`
// for the account's own limit; other `rate_limit` refusals (throttles, a 429 on an API key) never
// carry it, so those count only when the message itself is a limit message.
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import { isClaudeLimitLine } from './limits.js';
import { parseResetTime } from '../usage-limit/reset-time.js';
import type { UsageLimitSignal } from '../usage-limit/usage-limit-signal.js';

/** The hook event that reports a turn ended by an API error. */
export const STOP_FAILURE = 'StopFailure';
/** Characters of the message read: Claude Code's limit message is under 400; a longer payload is trimmed, not trusted. */
const MAX_MESSAGE = 4096;
/** Longest text a signal carries (the contract's one line). */
const MAX_TEXT = 200;

const capped = (n: number) => z.pipe(z.string(), z.transform((s: string) => s.slice(0, n)));

const StopFailurePayload = z.object({
  hook_event_name: z.optional(z.literal(STOP_FAILURE)),
  error: capped(64),
  error_details: z.optional(capped(64)),
  last_assistant_message: z.optional(capped(MAX_MESSAGE)),
});

/** The usage limit a hook event reports, or null when it is another event or another failure. */
export function hookUsageLimit(event: string, payload: unknown, nowMs: number, localZone: string): UsageLimitSignal | null {
  if (event !== STOP_FAILURE) return null;
  const parsed = StopFailurePayload.safeParse(payload);
  if (!parsed.success || parsed.data.error !== 'rate_limit') return null;
  const message = parsed.data.last_assistant_message ?? '';
  const nl = message.indexOf('\n');
  const first = (nl < 0 ? message : message.slice(0, nl)).trim();
  if (parsed.data.error_details !== 'usage_limit_reached' && !isClaudeLimitLine(first)) return null;
  return { profile: 'claude', source: 'hook', resetAtMs: parseResetTime(message, nowMs, localZone), text: first.slice(0, MAX_TEXT) || 'usage limit reached' };
}
