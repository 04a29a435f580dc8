// A remote's daemon for the web host (`mori ui`, DESIGN.md §12): the remote named in a page's
// `/api?host=NAME`, looked up in remotes.json at that moment (added or removed since `mori ui` started
// counts), reached over ssh to its `mori bridge` — which refuses approvals and daemon stops there.
// Runs in the `mori ui` process.
import { fail, ok, type Result } from '../../common/result.js';
import { RemoteClient } from './remote-client.js';
import { readRemotes } from './remotes-store.js';

/** What the web host relays a page to: the remote's connection, said hello to. */
export interface RemoteUpstream {
  sendRaw(line: string): void;
  onRaw: RemoteClient['onRaw'];
  onClose(listener: (why: string) => void): void;
  close(): void;
}

/** The names in `home`'s remotes.json (none without the file), or why it cannot be read. */
export function remoteNames(home: string): Result<string[]> {
  const remotes = readRemotes(home);
  return remotes.ok ? ok(remotes.value.map((r) => r.name)) : remotes;
}

/** Connects to remote `name` of `home`'s remotes.json; a name it does not hold is `not-found`. */
export async function connectRemoteUpstream(home: string, name: string): Promise<Result<RemoteUpstream>> {
  const remotes = readRemotes(home);
  if (!remotes.ok) return remotes;
  const remote = remotes.value.find((r) => r.name === name);
  if (!remote) return fail('not-found', `no remote "${name}" in remotes.json (\`mori remote ls\` lists them)`);
  const client = await RemoteClient.connect(remote, { home });
  return client.ok ? ok(client.value) : client;
}
