// The Messages API stand-in (testkit/messages-api.ts) that the real Claude Code talks to in
// tests: streamed SSE events in the API's order, scripted turns, the request log, a stop that cuts an
// open stream and refuses connections, a restart on the same port, the usage-limit answer, a default
// turn and requests handed to a callback.
import { afterEach, expect, it } from 'vitest';
import { messageTexts, MessagesApiStandIn } from '../../testkit/messages-api.js';

let api: MessagesApiStandIn | null = null;
afterEach(async () => {
  await api?.stop();
  api = null;
});

const post = (base: string, body: unknown, path = '/v1/messages?beta=true'): Promise<Response> =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const turnBody = (text: string): unknown => ({ model: 'm', stream: true, tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: [{ type: 'text', text }] }] });

it('streams a scripted turn as the API does, and logs it with its conversation', async () => {
  api = await MessagesApiStandIn.start({ defaultText: 'default' });
  api.enqueue({ text: 'scripted reply' });
  const res = await post(api.url, turnBody('hello'));
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const events = (await res.text()).split('\n').filter((l) => l.startsWith('event: ')).map((l) => l.slice(7));
  expect(events).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  const again = await (await post(api.url, turnBody('again'))).text();
  expect(again).toContain('"text":"default"');
  expect(api.turns().map((r) => messageTexts(r.body).at(-1)?.text)).toEqual(['hello', 'again']);
  expect(api.turns()[0]?.path).toBe('/v1/messages');
});

it('answers side requests, count_tokens, and logs unknown routes with a 404', async () => {
  api = await MessagesApiStandIn.start();
  const side = (await (await post(api.url, { model: 'haiku', messages: [{ role: 'user', content: 'title?' }] })).json()) as Record<string, unknown>;
  expect(side['type']).toBe('message');
  const count = (await (await post(api.url, { messages: [] }, '/v1/messages/count_tokens')).json()) as Record<string, unknown>;
  expect(typeof count['input_tokens']).toBe('number');
  expect((await fetch(`${api.url}/api/elsewhere`)).status).toBe(404);
  expect(api.requests.map((r) => r.kind)).toEqual(['side', 'other', 'other']);
});

it('stop cuts a hanging turn and refuses connections; restart listens on the same port', async () => {
  api = await MessagesApiStandIn.start();
  const port = api.port;
  api.enqueue({ text: '', hang: true });
  const res = await post(api.url, turnBody('long'));
  const reading = res.text().then(
    () => 'ended',
    () => 'cut',
  );
  await api.stop();
  expect(await reading).toBe('cut');
  await expect(post(`http://127.0.0.1:${port}`, turnBody('x'))).rejects.toThrow();
  await api.restart();
  expect(api.port).toBe(port);
  expect((await post(api.url, turnBody('back'))).status).toBe(200);
});

it('limitUntil answers every Messages request with the 429 and unified rate-limit headers of a spent plan, until lifted', async () => {
  api = await MessagesApiStandIn.start();
  const resetMs = Date.parse('2030-01-01T05:08:00Z');
  api.limitUntil(resetMs);
  const res = await post(api.url, turnBody('over'));
  expect(res.status).toBe(429);
  expect(res.headers.get('anthropic-ratelimit-unified-status')).toBe('rejected');
  expect(res.headers.get('anthropic-ratelimit-unified-reset')).toBe(String(resetMs / 1000));
  expect(res.headers.get('anthropic-ratelimit-unified-representative-claim')).toBe('five_hour');
  expect(((await res.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
  api.limitUntil(null);
  expect((await post(api.url, turnBody('back'))).status).toBe(200);
});

it('answers an empty script with its default turn (a tool call among it), and hands requests to onRequest instead of its log', async () => {
  const seen: string[] = [];
  api = await MessagesApiStandIn.start({
    defaultTurn: { text: 'next step', toolUse: { name: 'Read', input: { file_path: '/x/notes.md' } } },
    onRequest: (r) => seen.push(`${r.kind}:${messageTexts(r.body).at(-1)?.text ?? ''}`),
  });
  api.enqueue({ text: 'scripted' });
  expect(await (await post(api.url, turnBody('first'))).text()).not.toContain('tool_use');
  const second = await (await post(api.url, turnBody('second'))).text();
  expect(second).toContain('"text":"next step"');
  expect(second).toContain('"name":"Read"');
  expect(second).toContain('"stop_reason":"tool_use"');
  expect(seen).toEqual(['turn:first', 'turn:second']);
  expect(api.requests).toEqual([]);
});
