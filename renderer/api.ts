// Where the window gets its one MoriApi (DESIGN.md §2, §12): the Electron preload's `window.moriApi`
// when the window runs in the app, else common/mori-api.ts's WebSocket transport to the web host
// that served this page (`mori ui`, whose cookie authorises the socket). Runs in the renderer.
import { createWebSocketApi, type MoriApi, type WebSocketLike } from '../common/mori-api.js';

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

export function connectApi(): MoriApi {
  if (window.moriApi) return window.moriApi;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return createWebSocketApi({ url: `${scheme}://${location.host}/api`, open: openBrowserSocket, client: 'mori window' });
}
