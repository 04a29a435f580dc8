// The window's MoriApi in a browser (DESIGN.md §2, §12; in the app the Electron preload's
// `window.moriApi` is used instead and this module is never loaded): common/mori-api.ts's WebSocket
// transport to the web host that served this page (`mori ui`). There the page trades the link's launch token (in the fragment)
// once for a session secret kept in sessionStorage — a reload of this tab finds it there — and each
// WebSocket sends that secret first (common/web-session.ts). The remotes the web host reaches are
// asked for once at load, each spoken to at `/api?host=NAME`, and the window sees all of them as one
// API (common/hosts-api.ts). Runs in the renderer.
import { createHostsApi } from '../common/hosts-api.js';
import { createWebSocketApi, type MoriApi, type WebSocketLike } from '../common/mori-api.js';
import { LOCAL_RECONNECT_MAX_MS } from '../common/protocol-client.js';
import { REMOTES_PATH, REQUEST_TIMEOUT_STORAGE_KEY, SECRET_STORAGE_KEY, SESSION_PATH, TOKEN_PARAM, WebRemotesReply, WebSessionReply } from '../common/web-session.js';

declare global {
  interface Window {
    moriApi?: MoriApi;
  }
}

/** The browser's WebSocket as the transport's WebSocketLike. */
function openBrowserSocket(url: string): WebSocketLike {
  const ws = new WebSocket(url);
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
  return like;
}

/** The link's token, exchanged once (it leaves the address bar first); else the secret this tab holds. */
async function sessionSecret(): Promise<string | null> {
  const token = new URLSearchParams(location.hash.slice(1)).get(TOKEN_PARAM);
  if (token !== null) {
    history.replaceState(null, '', location.pathname + location.search);
    try {
      const r = await fetch(SESSION_PATH, { method: 'POST', body: token, credentials: 'omit', cache: 'no-store' });
      const reply = r.ok ? WebSessionReply.safeParse(await r.json()) : null;
      if (reply?.success) {
        sessionStorage.setItem(SECRET_STORAGE_KEY, reply.data.secret);
        if (reply.data.requestTimeoutMs !== undefined) sessionStorage.setItem(REQUEST_TIMEOUT_STORAGE_KEY, String(reply.data.requestTimeoutMs));
        return reply.data.secret;
      }
      console.error(`mori: the link was refused: ${r.ok ? 'an unexpected answer' : await r.text()}`);
    } catch (err) {
      console.error('mori: the link could not be exchanged', err);
    }
  }
  return sessionStorage.getItem(SECRET_STORAGE_KEY);
}

/** The names of the remotes the web host reaches; none when it cannot say (the window is then this host's). */
async function remoteNames(secret: string | null): Promise<string[]> {
  if (secret === null) return [];
  try {
    const r = await fetch(REMOTES_PATH, { method: 'POST', body: secret, credentials: 'omit', cache: 'no-store' });
    const reply = r.ok ? WebRemotesReply.safeParse(await r.json()) : null;
    if (reply?.success) return reply.data.remotes.map((x) => x.name);
    console.error(`mori: the remotes could not be read: ${r.ok ? 'an unexpected answer' : await r.text()}`);
  } catch (err) {
    console.error('mori: the remotes could not be read', err);
  }
  return [];
}

export async function connectApi(): Promise<MoriApi> {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const secret = sessionSecret();
  const names = await remoteNames(await secret);
  // The web host's request time limit, told with the secret (a test's knob); else the protocol's own.
  const limit = Number(sessionStorage.getItem(REQUEST_TIMEOUT_STORAGE_KEY) ?? NaN);
  const timeout = Number.isInteger(limit) && limit > 0 ? { requestTimeoutMs: limit } : {};
  const socket = (query: string, reconnectMaxMs?: number): MoriApi =>
    createWebSocketApi({ url: `${scheme}://${location.host}/api${query}`, open: openBrowserSocket, client: 'mori window', secret: () => secret, ...timeout, ...(reconnectMaxMs !== undefined ? { reconnectMaxMs } : {}) });
  // This host's daemon is tried again every second at most while it is away; a remote (ssh) less often.
  return createHostsApi(socket('', LOCAL_RECONNECT_MAX_MS), names.map((name) => ({ name, api: socket(`?host=${encodeURIComponent(name)}`) })));
}
