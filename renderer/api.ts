// The window's MoriApi in a browser (DESIGN.md §2, §12; in the app the Electron preload's
// `window.moriApi` is used instead and this module is never loaded): common/mori-api.ts's WebSocket
// transport to the web host that served this page (`mori ui`). There the page trades the link's
// launch token (in the fragment) once for a session secret kept in sessionStorage — a reload of this
// tab finds it there — and each WebSocket sends that secret first (common/web-session.ts). The
// exchange and this host's first socket were started by the entry before this chunk loaded
// (renderer/early-connect.ts); this module checks and uses them. The remotes the web host reaches are
// asked for once at load, each spoken to at `/api?host=NAME`, and the window sees all of them as one
// API (common/hosts-api.ts). Runs in the renderer.
import { createHostsApi } from '../common/hosts-api.js';
import { createWebSocketApi, type MoriApi } from '../common/mori-api.js';
import { LOCAL_RECONNECT_MAX_MS } from '../common/protocol-client.js';
import { REMOTES_PATH, REQUEST_TIMEOUT_STORAGE_KEY, SECRET_STORAGE_KEY, WebRemotesReply, WebSessionReply } from '../common/web-session.js';
import { apiUrl, wrapSocket, type EarlyConnect, type ExchangeAnswer } from './early-connect.js';

declare global {
  interface Window {
    moriApi?: MoriApi;
  }
}

/** The secret the link's token was exchanged for (early-connect.ts started the exchange); else the one this tab holds. */
async function sessionSecret(exchange: Promise<ExchangeAnswer> | null): Promise<string | null> {
  if (exchange === null) return sessionStorage.getItem(SECRET_STORAGE_KEY);
  const answer = await exchange;
  if ('reply' in answer) {
    const reply = WebSessionReply.safeParse(answer.reply);
    if (reply.success) {
      sessionStorage.setItem(SECRET_STORAGE_KEY, reply.data.secret);
      if (reply.data.requestTimeoutMs !== undefined) sessionStorage.setItem(REQUEST_TIMEOUT_STORAGE_KEY, String(reply.data.requestTimeoutMs));
      return reply.data.secret;
    }
    // Not a session's answer: what early-connect.ts kept of it is not used.
    sessionStorage.removeItem(SECRET_STORAGE_KEY);
    console.error('mori: the link was refused: an unexpected answer');
    return null;
  }
  if ('refused' in answer) console.error(`mori: the link was refused: ${answer.refused}`);
  else console.error('mori: the link could not be exchanged', answer.error);
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

/** The API over the exchange and the socket that `early` started (main.tsx calls connectEarly first). */
export async function connectApi(early: EarlyConnect): Promise<MoriApi> {
  const secret = sessionSecret(early.exchange);
  const names = await remoteNames(await secret);
  // The web host's request time limit, told with the secret (a test's knob); else the protocol's own.
  const limit = Number(sessionStorage.getItem(REQUEST_TIMEOUT_STORAGE_KEY) ?? NaN);
  const timeout = Number.isInteger(limit) && limit > 0 ? { requestTimeoutMs: limit } : {};
  // The first socket to this host is the one opened early; every later one (a reconnect, a remote, an attachment) is new.
  const open = (url: string) => early.takeSocket(url) ?? wrapSocket(new WebSocket(url));
  const socket = (query: string, reconnectMaxMs?: number): MoriApi =>
    createWebSocketApi({ url: apiUrl(query), open, client: 'mori window', secret: () => secret, ...timeout, ...(reconnectMaxMs !== undefined ? { reconnectMaxMs } : {}) });
  // This host's daemon is tried again every second at most while it is away; a remote (ssh) less often.
  return createHostsApi(socket('', LOCAL_RECONNECT_MAX_MS), names.map((name) => ({ name, api: socket(`?host=${encodeURIComponent(name)}`) })));
}
