// GitHub Copilot CLI's usage record (DESIGN.md §5 "Usage"): its events file (record.ts), where each
// model request is a line `{"type":"session.usage_record","data":{"usage":{model,inputTokens,
// outputTokens,cacheReadTokens,cacheWriteTokens,reasoningTokens,maxPromptTokens,…}},"id":…,
// "timestamp":…}` (checked against 1.0.102 over the Responses API). `inputTokens` includes the cached
// part; `outputTokens` already holds the reasoning tokens, so those are not added again. A request is
// counted once, by its event id. Pure parsing; runs in the daemon's process.
import type { UsageLineParser, UsageRecord, UsageSource } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { copilotEventsPath } from './record.js';

const USAGE_EVENT = '{"type":"session.usage_record"';

interface Line {
  type?: unknown;
  id?: unknown;
  timestamp?: unknown;
  data?: { usage?: Record<string, unknown> };
}

export function copilotUsageParser(): UsageLineParser {
  const seen = new Set<string>();
  return {
    line(text: string): UsageRecord | null {
      if (!text.startsWith(USAGE_EVENT)) return null;
      let j: Line;
      try {
        j = JSON.parse(text) as Line;
      } catch {
        return null;
      }
      const u = j.data?.usage;
      if (typeof u !== 'object' || u === null || typeof j.id !== 'string' || seen.has(j.id)) return null;
      seen.add(j.id);
      const prompt = count(u['inputTokens']);
      const cached = Math.min(count(u['cacheReadTokens']), prompt);
      const window = count(u['maxPromptTokens']);
      return {
        atMs: typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN,
        model: typeof u['model'] === 'string' ? u['model'] : null,
        input: prompt - cached,
        output: count(u['outputTokens']),
        cacheRead: cached,
        cacheWrite: count(u['cacheWriteTokens']),
        contextTokens: prompt,
        contextWindow: window > 0 ? window : null,
      };
    },
  };
}

export const copilotUsage: UsageSource = {
  // Its own provider type defaults to the OpenAI API (COPILOT_PROVIDER_TYPE=openai).
  provider: 'openai',
  file: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(null) : copilotEventsPath(env, ref.agentSessionId)),
  needles: ['"session.usage_record"'],
  parser: copilotUsageParser,
};
