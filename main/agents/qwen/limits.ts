// Qwen Code's usage-limit sources (DESIGN.md §4): its quota message on screen, its tool lines, and
// its hook that reports a turn ended by an API error. Read from Qwen Code 0.24.4: a provider's 429
// whose message says its quota is exhausted or exceeded and when it resets ("will reset", "reset at")
// ends the turn at once (no retries) with `✕ Quota exhausted: <the provider's words>` and "Please retry
// after the reset time, …" below; its StopFailure hook then carries the same text in
// `last_assistant_message` with `error` "billing_error" (or "rate_limit" when the status survives).
// A tool is a line `  <status> <Tool> …` (status ✓ ? - x o ✕) whose output is indented beneath it.
// Pure: the hook's payload is hostile input, validated and capped before it is read.
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import type { LimitSources } from '../profile.js';
import { LIMIT_LEAD } from '../usage-limit/limit-detect.js';
import { parseResetTime } from '../usage-limit/reset-time.js';
import { framedInTool } from '../usage-limit/tool-output.js';
import type { UsageLimitSignal } from '../usage-limit/usage-limit-signal.js';

/** Qwen Code's own prefix for a spent quota (its QUOTA_EXHAUSTED_PREFIX). */
const QUOTA_EXHAUSTED = /^Quota exhausted:/;

/** A tool's head line; its output rows are indented further beneath it (at least four spaces). */
const QWEN_TOOL_HEAD = /^ {1,3}[✓?x✕o-] \S/u;
const QWEN_TOOL_ROW = /^ {4,}\S/u;

export const qwenLimits: LimitSources = {
  shapes: [
    // 0.24.4: "✕ Quota exhausted: Your quota has been exceeded; it will reset at …".
    new RegExp(LIMIT_LEAD + String.raw`Quota exhausted: \S`, 'u'),
  ],
  inToolOutput: (screen, start) => framedInTool(screen, start, QWEN_TOOL_ROW, null, QWEN_TOOL_HEAD),
};

/** The hook event that reports a turn ended by an API error. */
export const QWEN_STOP_FAILURE = 'StopFailure';
/** Characters of the message read: Qwen Code's quota message is a few hundred; a longer payload is trimmed, not trusted. */
const MAX_MESSAGE = 4096;
/** Longest text a signal carries (the contract's one line). */
const MAX_TEXT = 200;
/** The error kinds its classifier gives a spent quota: 429 → rate_limit; a message naming a quota → billing_error. */
const QUOTA_ERRORS = ['rate_limit', 'billing_error'];

const capped = (n: number) => z.pipe(z.string(), z.transform((s: string) => s.slice(0, n)));

const StopFailurePayload = z.object({
  error: capped(64),
  last_assistant_message: z.optional(capped(MAX_MESSAGE)),
});

/** The usage limit Qwen Code's StopFailure hook reports, or null when it is another event or another failure. */
export function qwenHookUsageLimit(event: string, payload: unknown, nowMs: number, localZone: string): UsageLimitSignal | null {
  if (event !== QWEN_STOP_FAILURE) return null;
  const parsed = StopFailurePayload.safeParse(payload);
  if (!parsed.success || !QUOTA_ERRORS.includes(parsed.data.error)) return null;
  const message = parsed.data.last_assistant_message ?? '';
  if (!QUOTA_EXHAUSTED.test(message)) return null;
  const first = message.split('\n', 1)[0]?.trim() ?? '';
  return { profile: 'qwen', source: 'hook', resetAtMs: parseResetTime(message, nowMs, localZone), text: first.slice(0, MAX_TEXT) };
}
