// The window's entry: styles, the API, and the Preact app. In the app the preload's `window.moriApi`
// is there at once; in a browser (`mori ui`) the WebSocket transport (renderer/api.ts, with the
// protocol core and its schemas) is a chunk of its own, loaded only there; the entry starts connecting
// before it has loaded. Runs in the renderer.
import '@xterm/xterm/css/xterm.css';
import { render } from 'preact';
import type { MoriApi } from '../common/mori-api.js';
import { App } from './shell/app.js';
import { connectEarly } from './early-connect.js';
import './styles.css';
// After the styles it narrows for a phone: its rules win over theirs of the same weight.
import './shell/phone.css';
import { applyTheme } from './ui/theme.js';

// The chosen theme before the first paint: no flash of the other one.
applyTheme();

// In the app the page raises no notifications of its own: the app notifies natively.
const show = (api: MoriApi, pageNotifies: boolean): void => render(<App api={api} pageNotifies={pageNotifies} />, document.getElementById('app') as HTMLElement);

if (window.moriApi) show(window.moriApi, false);
else {
  // The link's exchange and the socket start now, while the API's chunk loads (renderer/early-connect.ts).
  const early = connectEarly();
  void import('./api.js').then(async (m) => show(await m.connectApi(early), true));
}
