// What the running supervisor says of each session right now (state, activity, pid), for `mori ls`
// and `mori status`; null when none answers, so they say the states are as last recorded. Never
// starts a daemon, and loads the protocol only when a socket file exists. Runs in the CLI process.
import { existsSync } from 'node:fs';
import type { SessionInfo } from '../../common/ipc.js';
import { lifecycleWords } from '../../common/session-view.js';
import { moriHome } from '../state/mori-home.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';

export interface LiveState {
  pid: number;
  sessions: Map<string, SessionInfo>;
}

/** Why there is no live state: the note `mori ls` prints instead. */
let lastNote = '';

export const NO_SUPERVISOR_NOTE = 'No Mori supervisor is running: states are as last recorded (`mori up --daemon` starts one).';

export async function liveState(home = moriHome()): Promise<LiveState | null> {
  // No socket file, no supervisor: `mori ls` then loads nothing of the protocol (DESIGN.md §10 cold start).
  if (!existsSync(controlSocketPath(home))) return null;
  const { ControlClient } = await import('../daemon-client/control-client.js');
  const c = await ControlClient.connect(home, { client: `mori ls (pid ${process.pid})` });
  if (!c.ok) {
    // A daemon of another version answers but cannot be read: say so rather than "none runs".
    lastNote = c.code === 'protocol' ? `${c.message}; states are as last recorded.` : NO_SUPERVISOR_NOTE;
    return null;
  }
  try {
    const r = await c.value.request('list', {});
    if (!r.ok) return null;
    const sessions = new Map<string, SessionInfo>();
    for (const s of r.value as SessionInfo[]) sessions.set(s.id, s);
    return { pid: c.value.daemon.pid, sessions };
  } finally {
    c.value.close();
  }
}

/** What to print when liveState gave null. */
export function noLiveNote(): string {
  return lastNote || NO_SUPERVISOR_NOTE;
}

/** `running (working), pid 123`; null when the supervisor does not hold the session. */
export function liveLine(live: LiveState, id: string): string | null {
  const s = live.sessions.get(id);
  if (!s) return null;
  return `${lifecycleWords(s)}${s.pid !== null ? `, pid ${s.pid}` : ''}`;
}
