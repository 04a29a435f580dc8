// Which daemon a session reference goes to (DESIGN.md §12, sessions on other hosts): `host:session`
// when `host` is one of the remotes, reached through ssh; anything else is a local session. The
// remotes are read only for a reference with a `:`, so local commands never depend on remotes.json.
// Runs in the CLI process.
import type { IpcMethod, IpcParams, IpcResult } from '../../common/ipc.js';
import type { StreamMessage } from '../../common/protocol-client.js';
import { fail, ok, type Result } from '../../common/result.js';
import { readRemotes, RemoteName, type Remote } from '../remote/remotes-store.js';
import { splitRemoteRef } from '../remote/remote-ref.js';
import { moriHome } from '../state/mori-home.js';

/** What a command needs of a daemon connection, local (the socket) or remote (ssh). */
export interface DaemonLink {
  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>>;
  notify<M extends IpcMethod>(method: M, params: IpcParams<M>): void;
  onStream(listener: (m: StreamMessage) => void): void;
  onClose(listener: (why: string) => void): void;
  close(): void;
}

/**
 * The remote and its session for `host:session`; null for a local reference; a failure when
 * remotes.json cannot be read, or when `host` is a remote's name that is not (or no longer) a remote:
 * a local session's name holds no `:`, so such a reference can only mean a remote.
 */
export function remoteTarget(spec: string): Result<{ remote: Remote; session: string } | null> {
  if (!spec.includes(':')) return ok(null);
  const remotes = readRemotes(moriHome());
  if (!remotes.ok) return remotes;
  const target = splitRemoteRef(spec, remotes.value);
  if (target) return ok(target);
  const host = spec.slice(0, spec.indexOf(':'));
  if (RemoteName.safeParse(host).success) return fail('not-found', noSuchRemote(host, remotes.value));
  return ok(null);
}

/** A `host:` that names no remote: which ones there are, and how to add it. */
export function noSuchRemote(host: string, remotes: readonly Remote[]): string {
  const known = remotes.length === 0 ? 'there are none' : `there are ${remotes.map((r) => r.name).join(', ')}`;
  return `there is no remote named "${host}" (${known}; \`mori remote add ${host} user@host\` adds it)`;
}
