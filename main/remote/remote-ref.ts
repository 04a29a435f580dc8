// `host:session` (DESIGN.md §12, sessions on other hosts): which remote a session reference names. Kept
// apart from the ssh client so a local command loads nothing of the protocol to ask. Runs in the CLI process.
import type { Remote } from './remotes-store.js';

/** `host:session` when `host` is a remote's name, else null (the spec is a local session). */
export function splitRemoteRef(spec: string, remotes: readonly Remote[]): { remote: Remote; session: string } | null {
  const at = spec.indexOf(':');
  if (at <= 0) return null;
  const remote = remotes.find((r) => r.name === spec.slice(0, at));
  const session = spec.slice(at + 1);
  return remote && session !== '' ? { remote, session } : null;
}

