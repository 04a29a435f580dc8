// A stand-in for the Gemini API (Generative Language API) as Gemini CLI uses it:
// `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answered as server-sent events, and
// `:generateContent` (titles, routing) and `:countTokens` answered as JSON. Each streamed reply
// names the turn (`stand-in reply N`). Loopback only; started by the real-CLI tests.
import type { ServerResponse } from 'node:http';
import { startStandIn, type LoggedRequest, type StandIn } from './loopback-server.js';

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
const reply = (text: string): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: usage,
  modelVersion: 'gemini-stand-in',
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A streamed reply that asks for one tool call (a shell command makes Gemini CLI ask the person first). */
export interface GeminiToolCall {
  functionCall: { name: string; args: Record<string, unknown> };
}

const callReply = (call: GeminiToolCall): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts: [call] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: usage,
  modelVersion: 'gemini-stand-in',
});

/** `calls`: replies for the streamed turns that follow the first `after` ones, in order; the rest say `stand-in reply N`. */
export async function startGeminiApi(port = 0, script: { after: number; calls: GeminiToolCall[] } = { after: 0, calls: [] }): Promise<StandIn> {
  let turn = 0;
  const calls = [...script.calls];
  return startStandIn((req: LoggedRequest, res) => {
    if (req.method === 'POST' && req.path.includes(':streamGenerateContent')) {
      turn++;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const call = turn > script.after ? calls.shift() : undefined;
      res.write(`data: ${JSON.stringify(call !== undefined ? callReply(call) : reply(`stand-in reply ${turn}`))}\n\n`);
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
}

/** The streamed model turns, oldest first. */
export const geminiTurns = (api: StandIn): LoggedRequest[] => api.requests.filter((r) => r.path.includes(':streamGenerateContent'));
