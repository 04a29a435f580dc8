// A stand-in for the Anthropic Messages API, so the real Claude Code can run in tests and
// benchmarks with no traffic beyond loopback: `POST /v1/messages` answers with streamed SSE events (message_start,
// content_block_start/delta/stop, message_delta, message_stop) or a JSON message, from a script of
// turns (or one default turn); every request is logged (unknown routes too, answered 404), or handed to
// a callback as it arrives; it can be stopped (open
// connections cut, as when the API goes away) and started again on the same port (the API back);
// `limitUntil(epochMs)` makes it answer every Messages request as a spent subscription does (HTTP 429
// with the unified rate-limit headers Claude Code reads to print its limit line and reset time).
// Listens on 127.0.0.1 only. Runs inside the test's (or benchmark's) process.
import http from 'node:http';
import type net from 'node:net';

/** What one conversational turn (a request that carries tools: the agent's main loop) answers. */
export interface ScriptedTurn {
  /** The assistant's reply text. */
  text: string;
  /** Wait this long after message_start before the text (the agent shows its spinner meanwhile). */
  delayMs?: number;
  /** Send message_start, then nothing: the turn stays open until the stand-in is stopped (an outage mid-turn). */
  hang?: boolean;
  /** After the text, ask for this tool call (stop_reason tool_use): a Bash or Write call makes claude ask the person first. */
  toolUse?: { name: string; input: Record<string, unknown> };
}

export interface LoggedRequest {
  method: string;
  /** The path without its query (`/v1/messages`). */
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or null. */
  body: Record<string, unknown> | null;
  /** `turn`: a Messages request with tools (the agent's main loop); `side`: other Messages requests (titles, checks); `other`: any other route. */
  kind: 'turn' | 'side' | 'other';
  at: number;
  /** The prompt's tokens as this stand-in counts them (the raw body's characters / 4), the total its usage reports. */
  inputTokens: number;
  /** The usage its answer reported (a Messages request answered in full): the four counts as the API splits them. */
  usage?: { input: number; cacheWrite: number; cacheRead: number; output: number };
}

export interface MessagesApiOptions {
  /** 0 picks a free port; a restart reuses the first one. */
  port?: number;
  /** The reply of a turn when the script is empty. */
  defaultText?: string;
  /** The whole turn answered when the script is empty (a delay, a tool call), instead of `defaultText` alone. */
  defaultTurn?: ScriptedTurn;
  /**
   * Each request as it arrives, handed here instead of kept in `requests`: a long run (the soak's
   * hours) would otherwise hold every body, each the whole conversation (tens of KB).
   */
  onRequest?: (r: LoggedRequest) => void;
  /**
   * How `limitUntil` refuses: `anthropic` (default) as the Messages API does a spent subscription;
   * `opencode-go` as OpenCode's Go gateway does (the same 429 with a `GoUsageLimitError` body and
   * `retry-after` in seconds to the reset), the one refusal opencode words as "Usage limit reached. It
   * will reset in …".
   */
  limitStyle?: 'anthropic' | 'opencode-go';
}

/** One message of a request's conversation, as text (tool results and blocks flattened). */
export function messageTexts(body: Record<string, unknown> | null): { role: string; text: string }[] {
  const messages = Array.isArray(body?.['messages']) ? (body['messages'] as { role?: unknown; content?: unknown }[]) : [];
  return messages.map((m) => {
    const role = typeof m.role === 'string' ? m.role : '?';
    if (typeof m.content === 'string') return { role, text: m.content };
    const blocks = Array.isArray(m.content) ? (m.content as { type?: unknown; text?: unknown }[]) : [];
    return { role, text: blocks.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n') };
  });
}

/**
 * The prompt's tokens (a byte count / 4) split as the API splits a cached conversation: after the
 * first request most of it is read from the prompt cache, a part is written to it, the rest is new
 * input. Non-zero in every field so usage readers see each one; the shares are arbitrary but fixed.
 */
function promptUsage(tokens: number, cached: boolean): Record<string, unknown> {
  const cacheRead = cached ? Math.floor(tokens * 0.7) : 0;
  const cacheWrite = Math.floor((tokens - cacheRead) * 0.8);
  return {
    input_tokens: tokens - cacheRead - cacheWrite,
    output_tokens: 1,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    // The API breaks the write down by cache lifetime; clients (and ccusage) read this breakdown.
    cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
  };
}

const sse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export class MessagesApiStandIn {
  readonly requests: LoggedRequest[] = [];
  private readonly script: ScriptedTurn[] = [];
  private server: http.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private port_: number;
  private nextId = 1;
  private readonly defaultTurn: ScriptedTurn;
  private readonly onRequest: ((r: LoggedRequest) => void) | null;
  private limitedUntilMs: number | null = null;
  private readonly limitStyle: 'anthropic' | 'opencode-go';

  private constructor(options: MessagesApiOptions) {
    this.port_ = options.port ?? 0;
    this.defaultTurn = options.defaultTurn ?? { text: options.defaultText ?? 'OK.' };
    this.onRequest = options.onRequest ?? null;
    this.limitStyle = options.limitStyle ?? 'anthropic';
  }

  static async start(options: MessagesApiOptions = {}): Promise<MessagesApiStandIn> {
    const api = new MessagesApiStandIn(options);
    await api.listen();
    return api;
  }

  get port(): number {
    return this.port_;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port_}`;
  }

  get running(): boolean {
    return this.server !== null;
  }

  /** Queues replies for the next turns, in order. */
  enqueue(...turns: ScriptedTurn[]): void {
    this.script.push(...turns);
  }

  /**
   * From now on every Messages request is refused as over the 5-hour limit that resets at `epochMs`
   * (rounded down to whole seconds, as the API sends it); null lifts it. The refusal is not lifted by the
   * clock: a test turns it off.
   */
  limitUntil(epochMs: number | null): void {
    this.limitedUntilMs = epochMs;
  }

  turns(): LoggedRequest[] {
    return this.requests.filter((r) => r.kind === 'turn');
  }

  /** Stops listening and cuts every open connection (a stream in progress ends abruptly). */
  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again on the same port (the API is back). */
  async restart(): Promise<void> {
    if (this.server !== null) return;
    await this.listen();
  }

  private listen(): Promise<void> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port_, '127.0.0.1', () => {
        server.off('error', reject);
        this.port_ = (server.address() as net.AddressInfo).port;
        this.server = server;
        resolve();
      });
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | null = null;
    try {
      body = raw === '' ? null : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      body = null;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const promptTokens = Math.ceil(raw.length / 4);
    const isMessages = req.method === 'POST' && url.pathname === '/v1/messages';
    const tools = Array.isArray(body?.['tools']) ? (body['tools'] as unknown[]) : [];
    const kind: LoggedRequest['kind'] = isMessages ? (tools.length > 0 ? 'turn' : 'side') : 'other';
    const logged: LoggedRequest = { method: req.method ?? '?', path: url.pathname, query: url.search, headers: req.headers, body, kind, at: Date.now(), inputTokens: promptTokens };
    if (this.onRequest !== null) this.onRequest(logged);
    else this.requests.push(logged);

    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      return json(res, 200, { input_tokens: promptTokens });
    }
    if (!isMessages) {
      return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no route ${req.method} ${url.pathname}` } });
    }
    if (this.limitedUntilMs !== null) return usageLimited(res, this.limitedUntilMs, this.limitStyle);
    const turn: ScriptedTurn = kind === 'turn' ? (this.script.shift() ?? this.defaultTurn) : { text: 'OK' };
    const model = typeof body?.['model'] === 'string' ? body['model'] : 'claude-stand-in';
    const id = `msg_standin_${this.nextId++}`;
    const usage = promptUsage(promptTokens, this.nextId > 2);
    const reported = (output: number): void => {
      logged.usage = { input: usage['input_tokens'] as number, cacheWrite: usage['cache_creation_input_tokens'] as number, cacheRead: usage['cache_read_input_tokens'] as number, output };
    };
    if (body?.['stream'] !== true) {
      reported(usage['output_tokens'] as number);
      return json(res, 200, {
        id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: turn.text }],
        stop_reason: 'end_turn', stop_sequence: null, usage,
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_${id}` });
    res.write(sse('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }));
    if (turn.hang === true) return; // left open: stop() cuts it
    if (turn.delayMs !== undefined && turn.delayMs > 0) {
      res.write(sse('ping', { type: 'ping' }));
      await new Promise((r) => setTimeout(r, turn.delayMs));
      if (res.destroyed) return;
    }
    res.write(sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
    res.write(sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } }));
    res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
    const tool = turn.toolUse;
    if (tool !== undefined) {
      res.write(sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: `toolu_standin_${id}`, name: tool.name, input: {} } }));
      res.write(sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: JSON.stringify(tool.input) } }));
      res.write(sse('content_block_stop', { type: 'content_block_stop', index: 1 }));
    }
    const stopReason = tool !== undefined ? 'tool_use' : 'end_turn';
    const outputTokens = Math.max(1, Math.ceil(turn.text.length / 4));
    res.write(sse('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }));
    reported(outputTokens);
    res.write(sse('message_stop', { type: 'message_stop' }));
    res.end();
  }
}

/**
 * The API's answer to a subscriber whose 5-hour window is spent: 429, `rate_limit_error`, and the
 * unified rate-limit headers (status `rejected`, the window that binds as the representative claim,
 * its reset in epoch seconds). Claude Code builds "You've hit your … limit · resets …" from
 * `anthropic-ratelimit-unified-representative-claim` and `-reset` (2.1.332's 429 handler).
 */
function usageLimited(res: http.ServerResponse, untilMs: number, style: 'anthropic' | 'opencode-go'): void {
  const reset = String(Math.floor(untilMs / 1000));
  const go = style === 'opencode-go';
  // opencode 1.18.33 words a refusal as a Go limit when its body holds "GoUsageLimitError" (its
  // SessionRetry.retryable), the reset from `retry-after` in seconds.
  const body = JSON.stringify(go
    ? { type: 'error', error: { type: 'GoUsageLimitError', message: 'Usage limit reached.' }, metadata: { workspace: 'wrk_standin' } }
    : { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed your account\'s rate limit. Please try again later.' } });
  res.writeHead(429, {
    ...(go ? { 'retry-after': String(Math.max(0, Math.ceil((untilMs - Date.now()) / 1000))) } : {}),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': reset,
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
    'anthropic-ratelimit-unified-fallback': 'unavailable',
    'anthropic-ratelimit-unified-5h-status': 'rejected',
    'anthropic-ratelimit-unified-5h-reset': reset,
    'anthropic-ratelimit-unified-5h-utilization': '1.0',
    'anthropic-ratelimit-unified-7d-status': 'allowed',
    'anthropic-ratelimit-unified-7d-utilization': '0.42',
    'anthropic-ratelimit-unified-overage-status': 'rejected',
    'anthropic-ratelimit-unified-overage-disabled-reason': 'org_level_disabled',
  });
  res.end(body);
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
