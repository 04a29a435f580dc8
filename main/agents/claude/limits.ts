// Claude Code's usage-limit sources (DESIGN.md §4): its limit messages on screen, its tool frame (a
// limit sentence inside a tool's output is never its own), and its transcript's refused request.
// Screen and frame read from Claude Code 2.1.332: a tool call `● Bash(cat README.md)` at column 0,
// its result under it, `  ⎿  ` on the first row and column 5 on the rest. Its own messages are a new
// block: a row at column 0, or `  ⎿  ` after a blank row (each message's top margin) or under the
// person's prompt.
// Its transcript (2.1.332) holds an assistant entry with `isApiErrorMessage: true`, `error:
// "rate_limit"`, `apiErrorStatus: 429` and, for the account's own limit, `apiError:
// "usage_limit_reached"` with `apiErrorParams.rate_limit_info {status: "rejected", resetsAt
// (epoch s), rateLimitType}`; the text is the screen's "You've hit your … · resets …". Other
// refusals share `error: "rate_limit"` (server throttles, a 429 on an API key) and never carry
// `usage_limit_reached`, so those count only when their text is a limit message. Pure; every entry
// is validated, hostile lines are skipped, and the newest entry that speaks to the limit decides.
// The same transcript says whether the agent went on after a reset by itself: an answer stamped after it.
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import type { LimitSources } from '../profile.js';
import { LIMIT_LEAD, matchesLimitShape } from '../usage-limit/limit-detect.js';
import { entryTime, firstLine, newestLines, parseJson } from '../usage-limit/limit-transcript.js';
import { parseResetTime } from '../usage-limit/reset-time.js';
import { MAX_WALK, previousRow, rowAt } from '../usage-limit/tool-output.js';
import type { UsageLimitSignal } from '../usage-limit/usage-limit-signal.js';
import { claudeTranscriptPath } from './transcript.js';

/** Claude Code's limit messages (start of line after LIMIT_LEAD). */
const SHAPES: readonly RegExp[] = [
  // 2.1.x: "You've hit your session limit · resets …", "You've hit your limit · …", weekly, Opus, Sonnet, Fable.
  new RegExp(LIMIT_LEAD + String.raw`You(?:'|’)ve (?:hit|reached) your (?:(?:session|weekly|5-hour|Opus|Sonnet|Fable|usage|daily|org's monthly usage|individual usage) )?limit\b`, 'iu'),
  // 2.1.x retry banner and workflow pause: "5-hour limit reached ∙ resets 3pm", "Usage limit reached · …".
  // Not 2.1.332's notice of its own continuation ("Usage limit reached · set to continue automatically
  // at 2:29am", a claude.ai login): printed with the limit's own line, it stays on screen after the
  // agent went on by itself and would read as a new limit then.
  new RegExp(LIMIT_LEAD + String.raw`(?:5-hour|session|weekly|Opus|Sonnet|Fable|usage) limit reached\b(?!\s*[·∙]\s*set to continue automatically)`, 'iu'),
  // 1.0.x: "Claude AI usage limit reached|1749924000", "Claude usage limit reached. Your limit will reset at 5pm (…)".
  new RegExp(LIMIT_LEAD + String.raw`Claude (?:AI )?usage limit reached\b`, 'iu'),
];

/** Whether `line` is one of Claude Code's own limit messages. */
export const isClaudeLimitLine = (line: string): boolean => matchesLimitShape(SHAPES, line);

const CLAUDE_TOOL_CALL = /^[●⏺] ?[^\s(][^(]{0,120}\(/u;

/** Whether the row starting at `start` is inside a tool's output. */
function inToolOutput(screen: string, start: number): boolean {
  return claudeInTool(screen, start, rowAt(screen, start));
}

function claudeInTool(screen: string, start: number, line: string): boolean {
  if (!/^\s/.test(line)) return false;
  const above = previousRow(screen, start);
  // A new message (`  ⎿  ` after a blank row, its top margin) is the CLI's own wherever it stands:
  // a tool's output goes on at column 5 after a blank row, never at column 2.
  if (/^ {2}⎿ {2}\S/u.test(line) && above !== null && rowAt(screen, above).trim() === '') return false;
  let row = above;
  for (let n = 0; n < MAX_WALK && row !== null; n++, row = previousRow(screen, row)) {
    const text = rowAt(screen, row);
    if (text.trim() === '' || /^\s/.test(text)) continue;
    return CLAUDE_TOOL_CALL.test(text);
  }
  // No head on screen (scrolled off): not known to be the CLI's.
  return true;
}

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
    if (!ownLimit && !(rateLimited && isClaudeLimitLine(firstLine(text)))) return null;
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

export const claudeLimits: LimitSources = {
  shapes: SHAPES,
  inToolOutput,
  transcript: {
    file: (env, agentSessionId, cwd) => Promise.resolve(claudeTranscriptPath(env, cwd, agentSessionId)),
    usageLimit: claudeTranscriptUsageLimit,
    answeredSince: claudeAnsweredSince,
  },
};
