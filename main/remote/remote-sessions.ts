// Sessions across daemons (DESIGN.md §12, sessions on other hosts): every remote's session list at
// once for `mori ls`, each given up on after a short deadline so an unreachable host never holds the
// list up. Runs in the CLI process.
import { PROTOCOL_VERSION, type LiveSession } from '../../common/ipc.js';
import { RemoteClient, otherVersionMessage } from './remote-client.js';
import type { Remote } from './remotes-store.js';
import { listTimeoutMs } from './login-bound.js';

export { LIST_TIMEOUT_ENV, LIST_TIMEOUT_MS, listTimeoutMs } from './login-bound.js';

export interface RemoteListing {
  name: string;
  destination: string;
  /** `other-version`: it answers, in another protocol version; `unreachable`: no answer in time, or ssh failed. */
  status: 'ok' | 'unreachable' | 'other-version';
  /** Its daemon's protocol version, when it answered hello. */
  protocol: number | null;
  /** Why it is not `ok`, and what to do. */
  message: string | null;
  sessions: LiveSession[];
}

/** One remote's sessions within `timeoutMs` (the connection and the list together). */
export async function listRemote(remote: Remote, timeoutMs = listTimeoutMs()): Promise<RemoteListing> {
  const base = { name: remote.name, destination: remote.destination };
  const deadline = Date.now() + timeoutMs;
  const c = await RemoteClient.connect(remote, { timeoutMs, allowOtherVersion: true });
  if (!c.ok) return { ...base, status: 'unreachable', protocol: null, message: c.message, sessions: [] };
  const client = c.value;
  try {
    if (client.daemon.protocol !== PROTOCOL_VERSION) {
      return { ...base, status: 'other-version', protocol: client.daemon.protocol, message: otherVersionMessage(remote, client.daemon), sessions: [] };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))));
    const listed = await Promise.race([client.request('list', {}), late]);
    clearTimeout(timer);
    if (listed === null) return { ...base, status: 'unreachable', protocol: client.daemon.protocol, message: `${remote.name} did not list its sessions within ${timeoutMs / 1000} s`, sessions: [] };
    if (!listed.ok) return { ...base, status: 'unreachable', protocol: client.daemon.protocol, message: `${remote.name}: ${listed.message}`, sessions: [] };
    return { ...base, status: 'ok', protocol: client.daemon.protocol, message: null, sessions: listed.value };
  } finally {
    client.close();
  }
}

/** Every remote's listing, asked at once. */
export function listRemotes(remotes: readonly Remote[], timeoutMs = listTimeoutMs()): Promise<RemoteListing[]> {
  return Promise.all(remotes.map((r) => listRemote(r, timeoutMs)));
}
