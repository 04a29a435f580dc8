// Codex's usage record (DESIGN.md §5 "Usage"): its rollout, where a `turn_context` line names the
// model and each answered request adds an `event_msg` of type `token_count` holding the session's
// running total (`total_token_usage`), the request's own (`last_token_usage`) and the model's
// `model_context_window`. A request is the step between two totals (codex may repeat a total: no
// request); OpenAI counts cached and cache-written tokens inside `input_tokens`, so they are taken out
// of it here. Pure parsing; runs in the daemon's process.
import type { UsageLineParser, UsageRecord, UsageSource } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { codexRolloutPath } from './rollouts.js';

interface Tokens {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
}

function tokens(v: unknown): Tokens | null {
  if (typeof v !== 'object' || v === null) return null;
  const t = v as Record<string, unknown>;
  return { input: count(t['input_tokens']), cached: count(t['cached_input_tokens']), cacheWrite: count(t['cache_write_input_tokens']), output: count(t['output_tokens']) };
}

const minus = (a: Tokens, b: Tokens): Tokens => ({ input: a.input - b.input, cached: a.cached - b.cached, cacheWrite: a.cacheWrite - b.cacheWrite, output: a.output - b.output });

interface Line {
  timestamp?: unknown;
  type?: unknown;
  payload?: { type?: unknown; model?: unknown; info?: { total_token_usage?: unknown; last_token_usage?: unknown; model_context_window?: unknown } | null };
}

export function codexUsageParser(): UsageLineParser {
  let model: string | null = null;
  let total: Tokens | null = null;
  return {
    line(text: string): UsageRecord | null {
      // Only turn contexts (the model) and token counts matter; the rest is not parsed.
      if (!text.includes('"token_count"') && !text.includes('"turn_context"')) return null;
      let j: Line;
      try {
        j = JSON.parse(text) as Line;
      } catch {
        return null;
      }
      if (j.type === 'turn_context') {
        if (typeof j.payload?.model === 'string') model = j.payload.model;
        return null;
      }
      const info = j.type === 'event_msg' && j.payload?.type === 'token_count' ? j.payload.info : null;
      if (info === null || info === undefined) return null;
      const now = tokens(info.total_token_usage);
      const last = tokens(info.last_token_usage);
      let step = now !== null && total !== null ? minus(now, total) : now;
      // A total that fell (a new history) or is missing: the request's own figures.
      if (step === null || Object.values(step).some((n) => n < 0)) step = last;
      if (now !== null) total = now;
      if (step === null || Object.values(step).every((n) => n === 0)) return null;
      const window = count(info.model_context_window);
      return {
        atMs: typeof j.timestamp === 'string' ? Date.parse(j.timestamp) : NaN,
        model,
        input: Math.max(0, step.input - step.cached - step.cacheWrite),
        output: step.output,
        cacheRead: step.cached,
        cacheWrite: step.cacheWrite,
        contextTokens: last?.input ?? step.input,
        contextWindow: window > 0 ? window : null,
      };
    },
  };
}

export const codexUsage: UsageSource = {
  provider: 'openai',
  file: (ref, env) => (ref.agentSessionId === null ? Promise.resolve(null) : codexRolloutPath(env, ref.agentSessionId)),
  needles: ['"token_count"', '"turn_context"'],
  parser: codexUsageParser,
};
