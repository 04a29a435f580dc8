// Qwen Code's usage record (DESIGN.md §5 "Usage"): its chat (`<id>.jsonl`, chats.ts), where each
// answer is a line `{"uuid":…,"type":"assistant",…,"model":…,"usageMetadata":{promptTokenCount,
// candidatesTokenCount,thoughtsTokenCount,cachedContentTokenCount,totalTokenCount},
// "contextWindowSize":…}` (checked against 0.24.4 over Chat Completions). `promptTokenCount` includes
// the cached part; `candidatesTokenCount` is the API's completion_tokens, which already holds the
// reasoning tokens (`thoughtsTokenCount`), so those are not added again. An answer is counted once,
// by its uuid. Its side agents' requests (memory extraction, prompt suggestions) are not in the chat.
// Pure parsing; runs in the daemon's process.
import type { UsageLineParser, UsageRecord, UsageSource } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { qwenChatPath } from './chats.js';

interface Line {
  uuid?: unknown;
  type?: unknown;
  timestamp?: unknown;
  model?: unknown;
  usageMetadata?: Record<string, unknown>;
  contextWindowSize?: unknown;
}

export function qwenUsageParser(): UsageLineParser {
  const seen = new Set<string>();
  return {
    line(text: string): UsageRecord | null {
      if (!text.startsWith('{"uuid":') || !text.includes('"usageMetadata"')) return null;
      let j: Line;
      try {
        j = JSON.parse(text) as Line;
      } catch {
        return null;
      }
      const u = j.usageMetadata;
      if (j.type !== 'assistant' || typeof u !== 'object' || u === null || typeof j.uuid !== 'string' || seen.has(j.uuid)) return null;
      seen.add(j.uuid);
      const prompt = count(u['promptTokenCount']);
      const cached = Math.min(count(u['cachedContentTokenCount']), prompt);
      const window = count(j.contextWindowSize);
      return {
        atMs: typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN,
        model: typeof j.model === 'string' ? j.model : null,
        input: prompt - cached,
        output: count(u['candidatesTokenCount']),
        cacheRead: cached,
        cacheWrite: 0,
        contextTokens: prompt,
        contextWindow: window > 0 ? window : null,
      };
    },
  };
}

export const qwenUsage: UsageSource = {
  // Its default auth type speaks the OpenAI API; the model is whatever the provider serves.
  provider: 'openai',
  file: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(null) : qwenChatPath(env, ref.cwd, ref.agentSessionId)),
  needles: ['"usageMetadata"'],
  parser: qwenUsageParser,
};
