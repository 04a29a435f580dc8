// Gemini CLI's usage record (DESIGN.md §5 "Usage"): its chat (`.jsonl`), where each reply is a line
// `{"id":…,"type":"gemini",…,"tokens":{input,output,cached,thoughts,tool,total},"model":…}` and is
// written again whole each time it changes (its tool calls' results added): a reply is counted once,
// by its id, from the first line that carries its tokens. `input` (the API's promptTokenCount)
// includes the cached part; thoughts are billed as output, tool-use prompt tokens as input. `$set`
// lines restate the chat's header or earlier messages and are not counted again. Pure parsing; runs
// in the daemon's process.
import type { UsageLineParser, UsageRecord, UsageSource } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { geminiChatPath } from './chats.js';

interface Line {
  id?: unknown;
  type?: unknown;
  timestamp?: unknown;
  model?: unknown;
  tokens?: Record<string, unknown>;
}

export function geminiUsageParser(): UsageLineParser {
  const seen = new Set<string>();
  return {
    line(text: string): UsageRecord | null {
      // A message line opens with its id; only replies carry tokens.
      if (!text.startsWith('{"id":') || !text.includes('"tokens"')) return null;
      let j: Line;
      try {
        j = JSON.parse(text) as Line;
      } catch {
        return null;
      }
      const t = j.tokens;
      if (j.type !== 'gemini' || typeof t !== 'object' || t === null || typeof j.id !== 'string' || seen.has(j.id)) return null;
      seen.add(j.id);
      const prompt = count(t['input']) + count(t['tool']);
      const cached = Math.min(count(t['cached']), prompt);
      return {
        atMs: typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN,
        model: typeof j.model === 'string' ? j.model : null,
        input: prompt - cached,
        output: count(t['output']) + count(t['thoughts']),
        cacheRead: cached,
        cacheWrite: 0,
        contextTokens: prompt,
        contextWindow: null,
      };
    },
  };
}

export const geminiUsage: UsageSource = {
  provider: 'google',
  file: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(null) : geminiChatPath(env, ref.cwd, ref.agentSessionId, false)),
  needles: ['"tokens"'],
  parser: geminiUsageParser,
};
