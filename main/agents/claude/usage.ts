// Claude Code's usage record (DESIGN.md §5 "Usage"): its transcript, one JSON line per content block
// of a reply; each assistant line repeats its request's `message.usage` (input, output, cache creation
// and cache read tokens) and `message.model`. One request is counted once, by `message.id` and
// `requestId`, from its first line (as ccusage does; every line of a request carries the same figures
// in Claude Code 2.1.332). Pure parsing; runs in the daemon's process.
import type { UsageLineParser, UsageRecord, UsageSource } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { claudeTranscriptPath } from './transcript.js';

/** The model Claude Code names on lines it wrote itself (an API error shown as a reply): no request. */
const SYNTHETIC_MODEL = '<synthetic>';

interface Line {
  type?: unknown;
  timestamp?: unknown;
  requestId?: unknown;
  message?: { id?: unknown; model?: unknown; usage?: Record<string, unknown> };
}

export function claudeUsageParser(): UsageLineParser {
  const seen = new Set<string>();
  return {
    line(text: string): UsageRecord | null {
      // Most lines (prompts, attachments, tool results) hold no usage: not parsed.
      if (!text.includes('"usage"') || !text.includes('"assistant"')) return null;
      let j: Line;
      try {
        j = JSON.parse(text) as Line;
      } catch {
        return null;
      }
      const m = j.message;
      const u = m?.usage;
      if (j.type !== 'assistant' || typeof u !== 'object' || u === null) return null;
      const model = typeof m?.model === 'string' ? m.model : null;
      if (model === SYNTHETIC_MODEL) return null;
      if (typeof m?.id === 'string' && typeof j.requestId === 'string') {
        const key = `${m.id}\n${j.requestId}`;
        if (seen.has(key)) return null;
        seen.add(key);
      }
      const input = count(u['input_tokens']);
      const cacheWrite = count(u['cache_creation_input_tokens']);
      const cacheRead = count(u['cache_read_input_tokens']);
      return {
        atMs: typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN,
        model,
        input,
        output: count(u['output_tokens']),
        cacheRead,
        cacheWrite,
        contextTokens: input + cacheWrite + cacheRead,
        contextWindow: null,
      };
    },
  };
}

export const claudeUsage: UsageSource = {
  provider: 'anthropic',
  file: (ref, env) => Promise.resolve(ref.agentSessionId === null ? null : claudeTranscriptPath(env, ref.cwd, ref.agentSessionId)),
  needles: ['"usage"'],
  parser: claudeUsageParser,
};
