// GitHub Copilot CLI's usage-limit sources (DESIGN.md §4), read from 1.0.102. With a provider of the
// person's own (COPILOT_PROVIDER_BASE_URL), a 429 is retried five times over about a minute and then
// ends the turn with `✗ Failed to get response from the AI model; retried 5 times (total retry wait
// time: … seconds) Last error: 429 <the provider's words>`, and its events file gets a
// `session.error` with `errorType` "rate_limit" and `statusCode` 429. Against GitHub's own service
// it says `You've hit your rate limit.`, `You've hit your session rate limit.`, `You've hit the rate
// limit for this model.` or `You've reached your weekly rate limit.`, with the reset after it. Its
// errorOccurred hook fires once per attempt with the same payload, so it cannot tell the last one:
// the screen and the events file are read instead. A tool is a head line ` $ Shell …` (or ` ● …`)
// with its rows indented three spaces beneath it. Pure: the events file is hostile input.
import type { LimitSources } from '../profile.js';
import { LIMIT_LEAD } from '../usage-limit/limit-detect.js';
import { parseResetTime } from '../usage-limit/reset-time.js';
import { framedInTool } from '../usage-limit/tool-output.js';
import type { UsageLimitSignal } from '../usage-limit/usage-limit-signal.js';
import { copilotEventsPath } from './record.js';

const SHAPES: readonly RegExp[] = [
  new RegExp(LIMIT_LEAD + String.raw`Failed to get response from the AI model; retried \d+ times\b.{0,120}Last error: 429\b`, 'u'),
  new RegExp(LIMIT_LEAD + String.raw`You've (?:hit your (?:session )?rate limit|hit the rate limit for this model|reached your weekly rate limit)\b`, 'u'),
];

/** A head line of its timeline (a tool, an answer, a notice); a tool's rows are indented further. */
const COPILOT_HEAD = /^ [$●○◐◑◒◓✓✗] \S/u;
const COPILOT_ROW = /^ {3,}\S/u;

/** Longest text a signal carries (the contract's one line). */
const MAX_TEXT = 200;

interface EventLine {
  type?: unknown;
  timestamp?: unknown;
  data?: { errorType?: unknown; statusCode?: unknown; message?: unknown };
}

/** The usage limit the tail of its events file ends on, or null when the turn went on or failed otherwise. */
export function copilotEventsUsageLimit(tail: string, nowMs: number, localZone: string): UsageLimitSignal | null {
  const lines = tail.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (line.startsWith('{"type":"assistant.message"') || line.startsWith('{"type":"user.message"')) return null;
    if (!line.startsWith('{"type":"session.error"')) continue;
    let j: EventLine;
    try {
      j = JSON.parse(line) as EventLine;
    } catch {
      continue;
    }
    const d = j.data;
    if (d?.errorType !== 'rate_limit' || typeof d.message !== 'string') return null;
    const at = typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN;
    const message = d.message.slice(0, 4096);
    return { profile: 'copilot', source: 'transcript', resetAtMs: parseResetTime(message, Number.isFinite(at) ? at : nowMs, localZone), text: message.split('\n', 1)[0]?.slice(0, MAX_TEXT) ?? '' };
  }
  return null;
}

export const copilotLimits: LimitSources = {
  shapes: SHAPES,
  inToolOutput: (screen, start) => framedInTool(screen, start, COPILOT_ROW, null, COPILOT_HEAD),
  transcript: {
    file: (env, agentSessionId) => copilotEventsPath(env, agentSessionId),
    usageLimit: copilotEventsUsageLimit,
  },
};
