// A session row as the app's state holds it (common/session-view.ts), for unit tests of the
// tray and the notifications: running and waiting unless told otherwise; the id is `id-<name>`.
import type { LiveSession } from '../../common/ipc.js';
import type { WatchedSession } from '../../common/session-view.js';

export function row(name: string, over: Partial<LiveSession> = {}, extra: Partial<WatchedSession> = {}): WatchedSession {
  return {
    info: { id: `id-${name}`, name, stateDir: `/p/.mori/${name}`, state: 'running', activity: 'waiting', backend: 'tmux', pid: 1, intent: { kind: 'running' }, nextAttemptAt: null, ...over },
    attention: null,
    verify: null,
    interrupted: null,
    ...extra,
  };
}
