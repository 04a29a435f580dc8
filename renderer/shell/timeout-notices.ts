// The window's API with a request the daemon did not answer in time told to the window as well as to
// its caller (the window shows it among its notices, DESIGN.md §12). Runs in the renderer.
import type { MoriApi } from '../../common/mori-api.js';
import type { Result } from '../../common/result.js';

/** The API with each `timeout` failure of a request told to `onTimeout` as well as to its caller. */
export function withTimeoutNotices(api: MoriApi, onTimeout: (message: string) => void): MoriApi {
  return {
    call: async (method, params) => {
      const r = await api.call(method, params);
      if (!r.ok && r.code === 'timeout') onTimeout(r.message);
      return r;
    },
    onEvent: (l) => api.onEvent(l),
    onConnection: (l) => api.onConnection(l),
    ...(api.onHosts ? { onHosts: api.onHosts.bind(api) } : {}),
    attach: (session, size, view) => api.attach(session, size, view),
    ...(api.openLink ? { openLink: (url: string) => (api.openLink as (u: string) => Promise<Result<unknown>>)(url) } : {}),
    ...(api.openStateDir ? { openStateDir: (session: string) => (api.openStateDir as (s: string) => Promise<Result<unknown>>)(session) } : {}),
    close: () => api.close(),
  };
}
