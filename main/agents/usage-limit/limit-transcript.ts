// Reads an agent's usage limit from its own transcript (text already read by the caller): Claude
// Code's session JSONL and Codex's rollout JSONL. Pure; every entry is validated, hostile lines are
// skipped, and the newest entry that speaks to the limit decides.
//
// Claude Code 2.1.332 writes an assistant entry with `isApiErrorMessage: true`, `error:
// "rate_limit"`, `apiErrorStatus: 429` and, for the account's own limit, `apiError:
// "usage_limit_reached"` with `apiErrorParams.rate_limit_info {status: "rejected", resetsAt
// (epoch s), rateLimitType}`; the text is the screen's "You've hit your … · resets …". Other
// refusals share `error: "rate_limit"` (server throttles, a 429 on an API key) and never carry
// `usage_limit_reached`, so those count only when their text is a limit message.
// Codex 0.171.0 writes `event_msg` entries: `token_count` with `rate_limits {primary, secondary:
// {used_percent, window_minutes, resets_at (epoch s)}, rate_limit_reached_type}` (releases before
// 0.50 wrote `resets_in_seconds`), and `error` with the screen's message.
// The same transcript says whether the agent went on after a reset by itself: an answer stamped after it.
// Gemini CLI 0.61.0 shows its limit in a dialog and does not record it in the chat file, so there
// is no Gemini reader.
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import { isLimitLine } from './limit-detect.js';
import { parseResetTime } from './reset-time.js';
import type { UsageLimitSignal } from './usage-limit-signal.js';

/** Longest JSONL line parsed: a limit entry is under 4 KB; longer lines are tool output, never a limit. */
const MAX_ENTRY = 256 * 1024;
/** Longest text a signal carries (the contract's one line). */
const MAX_TEXT = 200;

const ClaudeEntry = z.object({
  type: z.string(),
  timestamp: z.optional(z.string().check(z.maxLength(64))),
  isApiErrorMessage: z.optional(z.boolean()),
  error: z.optional(z.string().check(z.maxLength(64))),
  apiError: z.optional(z.string().check(z.maxLength(64))),
  apiErrorStatus: z.optional(z.number()),
  apiErrorParams: z.optional(z.object({
    rate_limit_info: z.optional(z.object({ status: z.optional(z.string().check(z.maxLength(32))), resetsAt: z.optional(z.int().check(z.positive())) })),
  })),
  message: z.optional(z.object({ content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.optional(z.string()) }))]) })),
});

/** The entry's time in ms, else the fallback (a reset printed as a clock time is the next one after it). */
function entryTime(stamp: string | undefined, fallbackMs: number): number {
  const t = stamp === undefined ? Number.NaN : Date.parse(stamp);
  return Number.isFinite(t) && t <= fallbackMs ? t : fallbackMs;
}

/** Lines of a JSONL text, newest first, without the over-long ones. */
function* newestLines(text: string): Generator<string> {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (end - start <= MAX_ENTRY) yield text.slice(start, end);
    end = start - 1;
  }
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return (nl < 0 ? text : text.slice(0, nl)).trim().slice(0, MAX_TEXT);
}

/** The usage limit a Claude Code transcript ends on, or null when its newest assistant entry is not one. */
export function claudeTranscriptUsageLimit(jsonl: string, nowMs: number, localZone: string): UsageLimitSignal | null {
  for (const line of newestLines(jsonl)) {
    if (!line.includes('"assistant"')) continue;
    const parsed = ClaudeEntry.safeParse(parseJson(line));
    if (!parsed.success || parsed.data.type !== 'assistant') continue;
    const e = parsed.data;
    if (e.isApiErrorMessage !== true) return null; // The agent answered after any limit: it has passed.
    const content = e.message?.content;
    const text = typeof content === 'string' ? content : (content ?? []).map((c) => c.text ?? '').join('\n');
    const info = e.apiErrorParams?.rate_limit_info;
    const ownLimit = e.apiError === 'usage_limit_reached' || info?.status === 'rejected';
    const rateLimited = e.error === 'rate_limit' || e.apiErrorStatus === 429;
    if (!ownLimit && !(rateLimited && isLimitLine('claude', firstLine(text)))) return null;
    const resetAtMs = info?.resetsAt !== undefined ? info.resetsAt * 1000 : parseResetTime(text, entryTime(e.timestamp, nowMs), localZone);
    return { profile: 'claude', source: 'transcript', resetAtMs, text: firstLine(text) };
  }
  return null;
}

/**
 * Whether a Claude Code transcript holds an answer of the model stamped after `sinceMs` (and not
 * after `nowMs`: a stamp from the future is not believed): the agent went on after a reset by
 * itself. A refusal entry (`isApiErrorMessage`) is no answer; the newest entries are read first and
 * the first one stamped at or before `sinceMs` ends the search.
 */
export function claudeAnsweredSince(jsonl: string, sinceMs: number, nowMs: number): boolean {
  for (const line of newestLines(jsonl)) {
    if (!line.includes('"assistant"')) continue;
    const parsed = ClaudeEntry.safeParse(parseJson(line));
    if (!parsed.success || parsed.data.type !== 'assistant') continue;
    const at = parsed.data.timestamp === undefined ? Number.NaN : Date.parse(parsed.data.timestamp);
    if (!Number.isFinite(at) || at > nowMs) continue;
    if (at <= sinceMs) return false;
    if (parsed.data.isApiErrorMessage !== true) return true;
  }
  return false;
}

const Window = z.optional(z.nullable(z.object({
  used_percent: z.number(),
  resets_at: z.optional(z.nullable(z.number().check(z.positive()))),
  resets_in_seconds: z.optional(z.nullable(z.number().check(z.nonnegative()))),
})));

const CodexEntry = z.object({
  timestamp: z.optional(z.string().check(z.maxLength(64))),
  type: z.literal('event_msg'),
  payload: z.object({
    type: z.string(),
    message: z.optional(z.string()),
    rate_limits: z.optional(z.nullable(z.object({ primary: Window, secondary: Window, rate_limit_reached_type: z.optional(z.nullable(z.string().check(z.maxLength(64)))) }))),
  }),
});

/** When a window at or over its limit resets, in ms; undefined when the window is under it or says nothing. */
function windowReset(w: z.infer<typeof Window>, atMs: number): number | null | undefined {
  if (w == null || w.used_percent < 100) return undefined;
  if (w.resets_at != null) return w.resets_at * 1000;
  if (w.resets_in_seconds != null) return atMs + w.resets_in_seconds * 1000;
  return null;
}

/** The usage limit a Codex rollout ends on: its newest rate-limit snapshot at 100 %, or an error entry saying so. */
export function codexRolloutUsageLimit(jsonl: string, nowMs: number, localZone: string): UsageLimitSignal | null {
  for (const line of newestLines(jsonl)) {
    if (!line.includes('"event_msg"')) continue;
    const parsed = CodexEntry.safeParse(parseJson(line));
    if (!parsed.success) continue;
    const { payload, timestamp } = parsed.data;
    const atMs = entryTime(timestamp, nowMs);
    if (payload.type === 'agent_message') return null; // The agent answered after any limit.
    if (payload.type === 'error' && payload.message !== undefined) {
      if (!isLimitLine('codex', firstLine(payload.message))) continue;
      return { profile: 'codex', source: 'transcript', resetAtMs: parseResetTime(payload.message, atMs, localZone), text: firstLine(payload.message) };
    }
    if (payload.type !== 'token_count' || payload.rate_limits == null) continue;
    const limits = payload.rate_limits;
    const resets = [windowReset(limits.primary, atMs), windowReset(limits.secondary, atMs)].filter((r) => r !== undefined);
    if (resets.length === 0 && (limits.rate_limit_reached_type ?? null) === null) return null;
    // Work resumes only when every exhausted window has reset: the latest of them.
    const known = resets.filter((r): r is number => r !== null);
    const resetAtMs = known.length > 0 && known.length === resets.length ? Math.max(...known) : null;
    const which = limits.rate_limit_reached_type ?? 'limit reached';
    return { profile: 'codex', source: 'transcript', resetAtMs, text: `rate limits at 100% (${which})`.slice(0, MAX_TEXT) };
  }
  return null;
}
