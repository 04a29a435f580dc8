// A stand-in for the OpenAI Responses API as Codex CLI uses it: `POST /v1/responses` with
// `stream: true`, answered as server-sent events (response.created, one assistant message,
// response.completed). Each reply names the turn (`stand-in reply N`) so a test can see it carried
// into a later request. Loopback only; started by the real-CLI tests.
import type { ServerResponse } from 'node:http';
import { startStandIn, type LoggedRequest, type StandIn } from './loopback-server.js';

function sse(res: ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

export async function startResponsesApi(port = 0): Promise<StandIn> {
  let turn = 0;
  return startStandIn((req: LoggedRequest, res) => {
    if (req.method === 'POST' && req.path.startsWith('/v1/responses')) {
      turn++;
      const id = `resp_${turn}`;
      const text = `stand-in reply ${turn}`;
      sse(res, [
        { type: 'response.created', response: { id } },
        {
          type: 'response.output_item.done',
          item: { type: 'message', role: 'assistant', id: `msg_${turn}`, content: [{ type: 'output_text', text }] },
        },
        {
          type: 'response.completed',
          response: {
            id,
            usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 },
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
}

/** The Responses API requests (the model turns), oldest first. */
export const responseTurns = (api: StandIn): LoggedRequest[] => api.requests.filter((r) => r.path.startsWith('/v1/responses'));
