// A stand-in for the OpenAI Chat Completions API as Qwen Code's default auth type (`openai`) uses it:
// `POST /v1/chat/completions` with `stream: true`, answered as server-sent `chat.completion.chunk`s
// (the text, or one tool call in `delta.tool_calls`, then a finish reason, then a chunk with the
// usage, as `stream_options.include_usage` asks) and `data: [DONE]`; a request without `stream` gets
// one JSON `chat.completion`. Each reply names the turn (`stand-in reply N`) so a test can see it
// carried into a later request. A script of tool calls answers the turns after the first `after`
// with a call each, in order, each only to a request that offers that tool (side requests such as a
// title offer none). `limitUntil(epochMs)` refuses every turn as a spent quota does (HTTP 429
// `insufficient_quota`, its message naming when the quota resets). Loopback only; started by the
// real-CLI tests.
import type { ServerResponse } from 'node:http';
import { startStandIn, type LoggedRequest, type StandIn } from './loopback-server.js';
import type { LimitableStandIn } from './responses-api.js';

/** A tool call the model makes: the function's name and its arguments (sent as the JSON string the API sends). */
export interface ChatToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

const MODEL = 'qwen-stand-in';

/** Whether a request body offers the model a function named `name`. */
function offers(body: unknown, name: string | undefined): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools;
  return name !== undefined && Array.isArray(tools) && tools.some((t) => (t as { function?: { name?: unknown } } | null)?.function?.name === name);
}

/**
 * The usage a reply reports: the request's tokens (its JSON's length / 4), after the first turn mostly
 * read from the prompt cache, and a few completion tokens of which some are reasoning. Non-zero in
 * every field so usage readers see each one; the shares are arbitrary but fixed.
 */
export function chatUsage(requestChars: number, turn: number): Record<string, unknown> {
  const prompt = Math.ceil(requestChars / 4);
  const cached = turn > 1 ? Math.floor(prompt * 0.7) : 0;
  const completion = 5 + turn;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: 2 },
  };
}

/** The words of the quota refusal: Qwen Code 0.24.4 takes a message with "quota", "exceeded" and "reset at" as a spent quota. */
export const quotaMessage = (untilMs: number): string => `Your quota has been exceeded; it will reset at ${new Date(untilMs).toISOString()}.`;

function quotaExceeded(res: ServerResponse, untilMs: number): void {
  const body = JSON.stringify({ error: { message: quotaMessage(untilMs), type: 'insufficient_quota', code: 'insufficient_quota', param: null } });
  res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null, usage?: Record<string, unknown>): string {
  const c = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: MODEL, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) };
  return `data: ${JSON.stringify(c)}\n\n`;
}

export interface ChatScript {
  after: number;
  calls: ChatToolCall[];
  /** The calls go only to requests that also offer this tool: the agent's own turns, not its side agents' (memory, suggestions). */
  mainTool?: string;
  /** How long each streamed reply is held after its first chunk (a turn that takes a while, for its working screen). */
  delayMs?: number;
}

/** `calls`: replies for the model turns that follow the first `after` ones, in order; the rest say `stand-in reply N`. */
export async function startChatCompletionsApi(port = 0, script: ChatScript = { after: 0, calls: [] }): Promise<LimitableStandIn> {
  let turn = 0;
  let limitedUntilMs: number | null = null;
  const calls = [...script.calls];
  const api = await startStandIn(async (req: LoggedRequest, res) => {
    if (req.method === 'POST' && req.path.startsWith('/v1/chat/completions')) {
      if (limitedUntilMs !== null) return quotaExceeded(res, limitedUntilMs);
      turn++;
      const id = `chatcmpl-${turn}`;
      const text = `stand-in reply ${turn}`;
      const usage = chatUsage(JSON.stringify(req.body ?? '').length, turn);
      const call = turn > script.after && offers(req.body, calls[0]?.name) && (script.mainTool === undefined || offers(req.body, script.mainTool)) ? calls.shift() : undefined;
      if ((req.body as { stream?: unknown } | null)?.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: MODEL, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk(id, { role: 'assistant', content: '' }, null));
      if ((script.delayMs ?? 0) > 0) await new Promise((r) => setTimeout(r, script.delayMs));
      if (call !== undefined) {
        const fn = { name: call.name, arguments: JSON.stringify(call.arguments) };
        res.write(chunk(id, { tool_calls: [{ index: 0, id: `call_${turn}`, type: 'function', function: fn }] }, null));
        res.write(chunk(id, {}, 'tool_calls'));
      } else {
        res.write(chunk(id, { content: text }, null));
        res.write(chunk(id, {}, 'stop'));
      }
      res.write(chunk(id, {}, null, usage));
      res.end('data: [DONE]\n\n');
      return;
    }
    if (req.method === 'GET' && req.path.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: MODEL, object: 'model', owned_by: 'stand-in' }] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `stand-in: no ${req.method} ${req.path}` } }));
  }, port);
  return Object.assign(api, { limitUntil: (epochMs: number | null) => void (limitedUntilMs = epochMs) });
}

/** The Chat Completions requests, oldest first. */
export const chatTurns = (api: StandIn): LoggedRequest[] => api.requests.filter((r) => r.path.startsWith('/v1/chat/completions'));
