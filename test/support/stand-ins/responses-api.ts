// A stand-in for the OpenAI Responses API as Codex CLI uses it: `POST /v1/responses` with
// `stream: true`, answered as server-sent events (response.created, one assistant message,
// response.completed). Each reply names the turn (`stand-in reply N`) so a test can see it carried
// into a later request. `limitUntil(epochMs)` makes it refuse every turn as a spent ChatGPT plan
// does (HTTP 429, `usage_limit_reached` with `resets_at`; its message names the reset when asked). A
// script of tool calls answers the turns after the first `after` with a `function_call` each (e.g.
// `exec_command`), in order, each only to a request that offers that tool (Codex's side requests,
// such as a thread title, offer none). Copilot CLI reads the same stream.
// Each output item is announced (`response.output_item.added`) before it is done, as the API does:
// Pi reads an item's text only from an item it saw added. `delayMs` holds each answer back, so a
// test can see the agent working.
// Loopback only; started by the real-CLI tests.
import type { ServerResponse } from 'node:http';
import { startStandIn, type LoggedRequest, type StandIn } from './loopback-server.js';

function sse(res: ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

/** A stand-in whose answers can be switched to a usage limit that resets at a given time. */
export interface LimitableStandIn extends StandIn {
  /** From now on every model turn is refused as over the usage limit resetting at `epochMs`; null lifts it. */
  limitUntil(epochMs: number | null): void;
}

/**
 * The 429 the Responses API sends a ChatGPT plan whose usage is spent: an `error` of type
 * `usage_limit_reached` with `resets_at` (epoch seconds) and `resets_in_seconds`. Codex CLI reads
 * `type`, `plan_type` and `resets_at` from it; the plan is left out, as it is for an API-key provider.
 */
function usageLimited(res: ServerResponse, untilMs: number, words: LimitWords): void {
  const body = JSON.stringify({
    error: {
      type: 'usage_limit_reached',
      message: words(untilMs),
      resets_at: Math.floor(untilMs / 1000),
      resets_in_seconds: Math.max(0, Math.ceil((untilMs - Date.now()) / 1000)),
    },
  });
  res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The refusal's message for a limit resetting at an epoch ms. */
export type LimitWords = (untilMs: number) => string;
/** Codex reads the reset from `resets_at`, so its words name none. */
const CODEX_LIMIT_WORDS: LimitWords = () => 'The usage limit has been reached';
/** Words naming the reset, for a CLI that relays the provider's message (Copilot CLI's "Last error: 429 …"). */
export const resetNamingWords: LimitWords = (untilMs) => `The usage limit has been reached; it will reset at ${new Date(untilMs).toISOString()}`;

/** A tool call the model makes: the tool's name and its arguments (sent as the JSON string the API sends). */
export interface ResponsesToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** Whether a request body offers the model a tool named `name`. */
function offers(body: unknown, name: string | undefined): boolean {
  const tools = (body as { tools?: unknown } | null)?.tools;
  return name !== undefined && Array.isArray(tools) && tools.some((t) => (t as { name?: unknown } | null)?.name === name);
}

/**
 * The usage a response reports: the request's tokens (its JSON's length / 4), after the first turn
 * mostly read from the prompt cache, and a few output tokens of which some are reasoning.
 * Non-zero in every field so usage readers see each one; the shares are arbitrary but fixed.
 */
function responseUsage(requestChars: number, turn: number): Record<string, unknown> {
  const input = Math.ceil(requestChars / 4);
  const cached = turn > 1 ? Math.floor(input * 0.7) : 0;
  const output = 5 + turn;
  return { input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: output, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: input + output };
}

/** A message's text as the API streams it before its item is done: the item added, then its text as one delta. */
function textEvents(item: Record<string, unknown>): Record<string, unknown>[] {
  if (item['type'] !== 'message') return [{ type: 'response.output_item.added', output_index: 0, item }];
  const text = ((item['content'] as { text: string }[])[0] ?? { text: '' }).text;
  const id = item['id'];
  return [
    { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
    { type: 'response.content_part.added', item_id: id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } },
    { type: 'response.output_text.delta', item_id: id, output_index: 0, content_index: 0, delta: text },
    { type: 'response.output_text.done', item_id: id, output_index: 0, content_index: 0, text },
    { type: 'response.content_part.done', item_id: id, output_index: 0, content_index: 0, part: { type: 'output_text', text } },
  ];
}

/** `calls`: replies for the model turns that follow the first `after` ones, in order; the rest say `stand-in reply N`. */
export async function startResponsesApi(port = 0, script: { after: number; calls: ResponsesToolCall[]; delayMs?: number } = { after: 0, calls: [] }, limitWords: LimitWords = CODEX_LIMIT_WORDS): Promise<LimitableStandIn> {
  let turn = 0;
  let limitedUntilMs: number | null = null;
  const calls = [...script.calls];
  const api = await startStandIn(async (req: LoggedRequest, res) => {
    if (req.method === 'POST' && req.path.startsWith('/v1/responses')) {
      if (limitedUntilMs !== null) return usageLimited(res, limitedUntilMs, limitWords);
      if ((script.delayMs ?? 0) > 0) await new Promise((r) => setTimeout(r, script.delayMs));
      turn++;
      const id = `resp_${turn}`;
      const text = `stand-in reply ${turn}`;
      const call = turn > script.after && offers(req.body, calls[0]?.name) ? calls.shift() : undefined;
      const item =
        call !== undefined
          ? { type: 'function_call', id: `fc_${turn}`, call_id: `call_${turn}`, name: call.name, arguments: JSON.stringify(call.arguments) }
          : { type: 'message', role: 'assistant', id: `msg_${turn}`, content: [{ type: 'output_text', text }] };
      sse(res, [
        { type: 'response.created', response: { id, status: 'in_progress', output: [] } },
        ...textEvents(item),
        { type: 'response.output_item.done', output_index: 0, item },
        {
          type: 'response.completed',
          response: {
            id,
            status: 'completed',
            // Copilot CLI takes the answer from the completed response's output, not the item events.
            output: [item],
            usage: responseUsage(JSON.stringify(req.body ?? '').length, turn),
          },
        },
      ]);
      return;
    }
    if (req.method === 'GET' && req.path.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `stand-in: no ${req.method} ${req.path}` } }));
  }, port);
  return Object.assign(api, { limitUntil: (epochMs: number | null) => void (limitedUntilMs = epochMs) });
}

/** The Responses API requests (the model turns), oldest first. */
export const responseTurns = (api: StandIn): LoggedRequest[] => api.requests.filter((r) => r.path.startsWith('/v1/responses'));
