// A stand-in for the Gemini API (Generative Language API) as Gemini CLI uses it:
// `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answered as server-sent events, and
// `:generateContent` (titles, routing) and `:countTokens` answered as JSON. Each streamed reply
// names the turn (`stand-in reply N`). `limitUntil(epochMs)` makes it refuse every model request with
// HTTP 429 RESOURCE_EXHAUSTED (a google.rpc.Status with RetryInfo until then; with `{ daily: true }` also
// a QuotaFailure naming a per-day quota, as an API key over its daily quota is; with `{ plan: true }` an
// ErrorInfo QUOTA_EXHAUSTED from Code Assist, as a Google sign-in over its plan's quota gets, on the
// streamed turns only). Loopback only; started by the real-CLI tests.
import type { ServerResponse } from 'node:http';
import { startStandIn, type LoggedRequest, type StandIn } from './loopback-server.js';
import type { LimitableStandIn } from './responses-api.js';

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/**
 * A streamed turn's usage: the request's tokens (its JSON's length / 4), after the first turn mostly
 * from the context cache, a few candidate and thought tokens. Non-zero in every field so usage
 * readers see each one; the shares are arbitrary but fixed.
 */
function turnUsage(requestChars: number, turn: number): Record<string, number> {
  const prompt = Math.ceil(requestChars / 4);
  const cached = turn > 1 ? Math.floor(prompt * 0.7) : 0;
  const candidates = 5 + turn;
  const thoughts = 2;
  return { promptTokenCount: prompt, cachedContentTokenCount: cached, candidatesTokenCount: candidates, thoughtsTokenCount: thoughts, totalTokenCount: prompt + candidates + thoughts };
}

const reply = (text: string, used: Record<string, number> = usage): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: used,
  modelVersion: 'gemini-stand-in',
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** What a limited Gemini stand-in refuses with. */
export interface GeminiLimit {
  untilMs: number;
  /** Name a per-day quota in a QuotaFailure: Gemini CLI then stops at once and prints no reset time. */
  daily: boolean;
  /**
   * Say QUOTA_EXHAUSTED in Code Assist's ErrorInfo (a plan's quota): Gemini CLI then stops at once
   * whatever the delay, and its dialog names the reset. Only the streamed turns (the Pro model's quota)
   * are refused: the model router's small requests go on (refused, Gemini CLI 0.61.0 repeats them
   * without pause and never shows its dialog).
   */
  plan: boolean;
}

/**
 * The Generative Language API's 429 for a spent quota: a google.rpc.Status whose details say when to
 * retry (RetryInfo, whole seconds until the reset) and, for a daily quota, which one (QuotaFailure with a
 * `…PerDay…` quota id), and the message the API words it with. Gemini CLI 0.61.0 retries by itself while
 * the delay is 300 s or less, and stops with its limit dialog (the reset time in it) when it is longer.
 */
function quotaExhausted(res: ServerResponse, limit: GeminiLimit): void {
  const seconds = Math.max(1, Math.ceil((limit.untilMs - Date.now()) / 1000));
  const quotaFailure = {
    '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
    violations: [
      {
        quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
        quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
        quotaDimensions: { location: 'global', model: 'gemini-stand-in' },
        quotaValue: '250',
      },
    ],
  };
  const errorInfo = {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'QUOTA_EXHAUSTED',
    domain: 'cloudcode-pa.googleapis.com',
    metadata: { model: 'gemini-stand-in', quotaResetDelay: `${seconds}s`, quotaResetTimeStamp: new Date(limit.untilMs).toISOString() },
  };
  json(res, 429, {
    error: {
      code: 429,
      message: limit.plan
        ? `You have exhausted your quota on this model. Your quota will reset after ${seconds}s.`
        : `You exceeded your current quota, please check your plan and billing details. Please retry in ${seconds}s.`,
      status: 'RESOURCE_EXHAUSTED',
      details: [
        ...(limit.daily ? [quotaFailure] : []),
        ...(limit.plan ? [errorInfo] : []),
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` },
      ],
    },
  });
}

/** The Gemini stand-in: its limit also takes whether the quota is a daily one or a plan's. */
export interface GeminiStandIn extends LimitableStandIn {
  limitUntil(epochMs: number | null, options?: { daily?: boolean; plan?: boolean }): void;
}

/** A streamed reply that asks for one tool call (a shell command makes Gemini CLI ask the person first). */
export interface GeminiToolCall {
  functionCall: { name: string; args: Record<string, unknown> };
}

const callReply = (call: GeminiToolCall, used: Record<string, number>): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts: [call] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: used,
  modelVersion: 'gemini-stand-in',
});

/** `calls`: replies for the streamed turns that follow the first `after` ones, in order; the rest say `stand-in reply N`. */
export async function startGeminiApi(port = 0, script: { after: number; calls: GeminiToolCall[] } = { after: 0, calls: [] }): Promise<GeminiStandIn> {
  let turn = 0;
  const calls = [...script.calls];
  let limit: GeminiLimit | null = null;
  const api = await startStandIn((req: LoggedRequest, res) => {
    if (req.method === 'POST' && limit !== null && (limit.plan ? /:streamGenerateContent/ : /:(?:stream)?[gG]enerateContent/).test(req.path)) return quotaExhausted(res, limit);
    if (req.method === 'POST' && req.path.includes(':streamGenerateContent')) {
      turn++;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const call = turn > script.after ? calls.shift() : undefined;
      const used = turnUsage(JSON.stringify(req.body ?? '').length, turn);
      res.write(`data: ${JSON.stringify(call !== undefined ? callReply(call, used) : reply(`stand-in reply ${turn}`, used))}\n\n`);
      res.end();
      return;
    }
    if (req.method === 'POST' && req.path.includes(':generateContent')) {
      // Titles and the model router ask for short JSON-ish text; a plain word satisfies both.
      json(res, 200, reply('{"reasoning":"stand-in","model_choice":"flash"}'));
      return;
    }
    if (req.method === 'POST' && req.path.includes(':countTokens')) {
      json(res, 200, { totalTokens: 10 });
      return;
    }
    json(res, 404, { error: { code: 404, message: `stand-in: no ${req.method} ${req.path}`, status: 'NOT_FOUND' } });
  }, port);
  return Object.assign(api, {
    limitUntil: (epochMs: number | null, options: { daily?: boolean; plan?: boolean } = {}) =>
      void (limit = epochMs === null ? null : { untilMs: epochMs, daily: options.daily === true, plan: options.plan === true }),
  });
}

/** The streamed model turns, oldest first. */
export const geminiTurns = (api: StandIn): LoggedRequest[] => api.requests.filter((r) => r.path.includes(':streamGenerateContent'));
