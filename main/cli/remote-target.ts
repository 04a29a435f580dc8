// Which daemon a session reference goes to (DESIGN.md §12, sessions on other hosts): `host:session`
// when `host` is one of the remotes, reached through ssh; anything else is a local session. The
// remotes are read only for a reference with a `:`, so local commands never depend on remotes.json.
// Runs in the CLI process.
import type { IpcMethod, IpcParams, IpcResult } from '../../common/ipc.js';
import type { StreamMessage } from '../../common/protocol-client.js';
import { ok, type Result } from '../../common/result.js';
import { readRemotes, type Remote } from '../remote/remotes-store.js';
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

/** The remote and its session for `host:session`; null for a local reference; a failure when remotes.json cannot be read. */
export function remoteTarget(spec: string): Result<{ remote: Remote; session: string } | null> {
  if (!spec.includes(':')) return ok(null);
  const remotes = readRemotes(moriHome());
  if (!remotes.ok) return remotes;
  return ok(splitRemoteRef(spec, remotes.value));
}
