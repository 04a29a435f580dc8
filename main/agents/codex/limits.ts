// Codex's usage-limit sources (DESIGN.md §4): its limit messages on screen, its tool frame, and its
// rollout's rate-limit snapshots. Read from Codex 0.171.0: a command runs as `• Ran cat README.md`,
// output rows `  └ …` then `    …`; its own messages start at column 0 (`■ You've hit your usage
// limit.`), so everything indented belongs to a cell. Its rollout holds `event_msg` entries:
// `token_count` with `rate_limits {primary, secondary: {used_percent, window_minutes, resets_at
// (epoch s)}, rate_limit_reached_type}` (releases before 0.50 wrote `resets_in_seconds`), and
// `error` with the screen's message. Pure; every entry is validated, hostile lines are skipped.
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import type { LimitSources } from '../profile.js';
import { LIMIT_LEAD, matchesLimitShape } from '../usage-limit/limit-detect.js';
import { entryTime, firstLine, MAX_TEXT, newestLines, parseJson } from '../usage-limit/limit-transcript.js';
import { parseResetTime } from '../usage-limit/reset-time.js';
import { rowAt } from '../usage-limit/tool-output.js';
import type { UsageLimitSignal } from '../usage-limit/usage-limit-signal.js';
import { codexRolloutPath } from './rollouts.js';

/** Codex's limit messages (start of line after LIMIT_LEAD). */
const SHAPES: readonly RegExp[] = [
  // 0.x–0.171: "■ You've hit your usage limit. … try again at 3:42 PM." and "… for <limit>".
  new RegExp(LIMIT_LEAD + String.raw`You(?:'|’)ve hit your usage limit\b`, 'iu'),
  // 0.171: "Usage limit reached. You've reached your usage limit. Increase your limits …".
  new RegExp(LIMIT_LEAD + String.raw`Usage limit reached\b`, 'iu'),
];

/** Codex prints its own messages from column 0; everything indented belongs to a cell (an exec's output). */
const inToolOutput = (screen: string, start: number): boolean => /^\s/.test(rowAt(screen, start));

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
      if (!matchesLimitShape(SHAPES, firstLine(payload.message))) continue;
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

export const codexLimits: LimitSources = {
  shapes: SHAPES,
  inToolOutput,
  transcript: {
    file: (env, agentSessionId) => codexRolloutPath(env, agentSessionId),
    usageLimit: codexRolloutUsageLimit,
  },
};
