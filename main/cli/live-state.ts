// What the running supervisor says of each session right now (state, activity, pid), for `mori ls`
// and `mori status`; null when none answers, so they say the states are as last recorded. Never
// starts a daemon, and loads the protocol only when a socket file exists. Runs in the CLI process.
import { existsSync } from 'node:fs';
import type { IpcResult, LiveSession } from '../../common/ipc.js';
import { preciseState } from '../../common/session-view.js';
import { moriHome } from '../state/mori-home.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';
import type { ControlClient } from '../daemon-client/control-client.js';
import { requestEarly } from '../daemon-client/early-request.js';
import type { ListingEntry } from '../supervisor/session/session-listing.js';

export interface LiveState {
  pid: number;
  sessions: Map<string, LiveSession>;
  /** Whether the daemon keeps the machine awake now; absent when it did not say (an older daemon). */
  awake?: IpcResult<'daemon.awake'>;
}

/** Why there is no live state: the note `mori ls` prints instead. */
let lastNote = '';

export const NO_SUPERVISOR_NOTE = 'No Mori supervisor is running: states are as last recorded (`mori up --daemon` starts one).';

/** A connection to the running supervisor, or null (and the note why) when none answers. */
async function connect(home: string): Promise<ControlClient | null> {
  // No socket file, no supervisor: `mori ls` then loads nothing of the protocol (DESIGN.md §10 cold start).
  if (!existsSync(controlSocketPath(home))) return null;
  const { ControlClient } = await import('../daemon-client/control-client.js');
  const c = await ControlClient.connect(home, { client: `mori ls (pid ${process.pid})` });
  if (c.ok) return c.value;
  // A daemon of another version answers but cannot be read: say so rather than "none runs".
  lastNote = c.code === 'protocol' ? `${c.message}; states are as last recorded.` : NO_SUPERVISOR_NOTE;
  return null;
}

export async function liveState(home = moriHome()): Promise<LiveState | null> {
  const c = await connect(home);
  if (!c) return null;
  try {
    const r = await c.request('list', {});
    if (!r.ok) return null;
    const sessions = new Map<string, LiveSession>();
    for (const s of r.value as LiveSession[]) sessions.set(s.id, s);
    return { pid: c.daemon.pid, sessions };
  } finally {
    c.close();
  }
}

/**
 * `mori ls` as the running supervisor lists it (the same listing, read by its warm parsers); null when
 * none answers or it cannot list (a daemon that predates `sessions.listing`, an unreadable registry):
 * the CLI then reads the files itself, and says what went wrong as it always did.
 */
export async function listingFromDaemon(home = moriHome()): Promise<{ live: LiveState; sessions: ListingEntry[] } | null> {
  const file = controlSocketPath(home);
  if (!existsSync(file)) return null;
  // The request goes out before the protocol's schemas load: the daemon lists while this process loads.
  const client = `mori ls (pid ${process.pid})`;
  const early = await requestEarly(file, client, 'sessions.listing', {});
  if ('error' in early) {
    lastNote = NO_SUPERVISOR_NOTE;
    return null;
  }
  const { ControlClient } = await import('../daemon-client/control-client.js');
  const adopted = await ControlClient.adopt(early, 'sessions.listing', home, { client });
  if (!adopted.ok) {
    // A daemon of another version answers but cannot be read: say so rather than "none runs".
    lastNote = adopted.code === 'protocol' ? `${adopted.message}; states are as last recorded.` : NO_SUPERVISOR_NOTE;
    return null;
  }
  const c = adopted.value.client;
  try {
    const r = adopted.value.result;
    if (!r.ok) return null;
    const live = new Map<string, LiveSession>();
    // In the order the daemon sent them, which is a local listing's (session-listing.ts); a state problem last, and only when there is one.
    const sessions = (r.value as ListingEntry[]).map(({ stateProblem, ...entry }) => {
      if (entry.live) live.set(entry.live.id, entry.live);
      return { ...entry, ...(stateProblem ? { stateProblem } : {}) };
    });
    const awake = await c.request('daemon.awake', {});
    return { live: { pid: c.daemon.pid, sessions: live, ...(awake.ok ? { awake: awake.value } : {}) }, sessions };
  } finally {
    c.close();
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
  return `${preciseState(s)}${s.pid !== null ? `, pid ${s.pid}` : ''}`;
}
