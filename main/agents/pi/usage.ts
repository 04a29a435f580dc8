// Pi's usage record (DESIGN.md §5 "Usage"): its session file (`<id>.jsonl`, sessions.ts), where each
// answer is a line `{"type":"message","id":…,"timestamp":…,"message":{"role":"assistant",…,
// "provider":…,"model":…,"usage":{"input","output","cacheRead","cacheWrite","totalTokens","cost":{…}},
// "stopReason":…}}` (checked against 0.73.1 over the Responses API). Its `input` is the uncached
// part already (Pi subtracts the cached tokens), so the four counts do not overlap. Its own `cost`
// (from its model table) is not carried: Mori prices every agent's tokens alike. A failed request is
// recorded with zero usage and adds nothing. An answer is counted once, by its entry id.
// Pure parsing; runs in the daemon's process.
import type { UsageLineParser, UsageRecord, UsageSource } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { piSessionPath } from './sessions.js';

interface Line {
  type?: unknown;
  id?: unknown;
  timestamp?: unknown;
  message?: { role?: unknown; model?: unknown; usage?: Record<string, unknown> };
}

export function piUsageParser(): UsageLineParser {
  const seen = new Set<string>();
  return {
    line(text: string): UsageRecord | null {
      if (!text.startsWith('{"type":"message"') || !text.includes('"usage"')) return null;
      let j: Line;
      try {
        j = JSON.parse(text) as Line;
      } catch {
        return null;
      }
      const m = j.message;
      const u = m?.usage;
      if (m?.role !== 'assistant' || typeof u !== 'object' || u === null || typeof j.id !== 'string' || seen.has(j.id)) return null;
      seen.add(j.id);
      const input = count(u['input']);
      const cacheRead = count(u['cacheRead']);
      const cacheWrite = count(u['cacheWrite']);
      if (input + count(u['output']) + cacheRead + cacheWrite === 0) return null;
      return {
        atMs: typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN,
        model: typeof m.model === 'string' ? m.model : null,
        input,
        output: count(u['output']),
        cacheRead,
        cacheWrite,
        contextTokens: input + cacheRead + cacheWrite,
        contextWindow: null,
      };
    },
  };
}

export const piUsage: UsageSource = {
  // Pi speaks to many providers; OpenAI's prices stand for a model the price table does not know.
  provider: 'openai',
  file: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(null) : piSessionPath(env, ref.agentSessionId)),
  needles: ['"usage"'],
  parser: piUsageParser,
};
