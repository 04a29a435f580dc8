// What a page served by `mori ui` starts before its API's code has loaded (DESIGN.md §13): the
// link's token exchange and this host's WebSocket. The API chunk (renderer/api.ts, with zod and the
// protocol core) takes both over once it has run: it checks the exchange's answer and speaks on the
// socket as it always did, the secret first. Until then nothing is sent on the socket (the web host
// reads nothing before the secret), so a fresh browser's connect and the chunk's loading overlap
// instead of following each other. Loads no schema. Runs in the renderer, in a browser only.
import type { WebSocketLike } from '../common/mori-api.js';
import { API_PATH, MAX_TOKEN_CHARS, SECRET_STORAGE_KEY, SESSION_PATH, TOKEN_PARAM } from '../common/web-session-names.js';

/**
 * The web host closes a socket that has sent no secret within 10 s (web-host.ts AUTH_TIMEOUT_MS),
 * with the code that ends reconnecting; a socket opened early is handed over only while it is well
 * inside that time (the API then sends the secret at once), else a fresh one is opened.
 */
export const EARLY_SOCKET_MAX_AGE_MS = 5_000;

/** The token exchange's answer: the web host's reply (as JSON), its refusal (its words), or why there is none. */
export type ExchangeAnswer = { reply: unknown } | { refused: string } | { error: unknown };

export interface EarlyConnect {
  /** The token exchange, started when the link carried a token (it has left the address bar); else null. */
  exchange: Promise<ExchangeAnswer> | null;
  /** The socket opened early to `url`, once, while it is open or opening and young enough; else null. */
  takeSocket(url: string): WebSocketLike | null;
}

/** The WebSocket URL of this host's daemon (`query`: `?host=NAME` for a remote's). */
export function apiUrl(query = ''): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${API_PATH}${query}`;
}

/** Starts the exchange and opens this host's socket. */
export function connectEarly(now: () => number = Date.now): EarlyConnect {
  const token = new URLSearchParams(location.hash.slice(1)).get(TOKEN_PARAM);
  let exchange: Promise<ExchangeAnswer> | null = null;
  if (token !== null) {
    history.replaceState(null, '', location.pathname + location.search);
    exchange = fetch(SESSION_PATH, { method: 'POST', body: token, credentials: 'omit', cache: 'no-store' })
      .then(async (r): Promise<ExchangeAnswer> => {
        if (!r.ok) return { refused: await r.text() };
        const reply: unknown = await r.json();
        keepSecret(reply);
        return { reply };
      })
      .catch((error: unknown) => ({ error }));
  }
  const url = apiUrl();
  let early: WebSocket | null = new WebSocket(url);
  const openedAt = now();
  return {
    exchange,
    takeSocket(wanted) {
      const ws = early;
      if (ws === null || wanted !== url) return null;
      early = null;
      if (ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED || now() - openedAt > EARLY_SOCKET_MAX_AGE_MS) {
        ws.close();
        return null;
      }
      return wrapSocket(ws);
    },
  };
}

/**
 * The link's token is spent once the web host has answered, so the secret is kept at once: a reload
 * before the API's chunk has loaded (and checked the whole answer) finds it. Only a string of a
 * secret's length is kept; the web host checks the secret itself on every socket.
 */
function keepSecret(reply: unknown): void {
  const secret = typeof reply === 'object' && reply !== null ? (reply as { secret?: unknown }).secret : undefined;
  if (typeof secret === 'string' && secret.length > 0 && secret.length <= MAX_TOKEN_CHARS) sessionStorage.setItem(SECRET_STORAGE_KEY, secret);
}

/**
 * The browser's WebSocket as the transport's WebSocketLike. One that is open already says so once the
 * transport has set its handlers (it sets them as soon as it gets the socket, in the same task).
 */
export function wrapSocket(ws: WebSocket): WebSocketLike {
  const like: WebSocketLike = {
    send: (d) => ws.send(d),
    close: (code, reason) => ws.close(code, reason),
    onopen: null,
    onmessage: null,
    onclose: null,
  };
  ws.onopen = () => like.onopen?.();
  ws.onmessage = (m) => {
    if (typeof m.data === 'string') like.onmessage?.(m.data);
  };
  ws.onclose = (e) => like.onclose?.(e.code, e.reason);
  if (ws.readyState === WebSocket.OPEN) queueMicrotask(() => like.onopen?.());
  return like;
}
