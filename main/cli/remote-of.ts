// Whether a session reference names a remote's session (`host:session`), loading the remotes' code and
// reading remotes.json only when it has a `:` (DESIGN.md §12): a command on a local session pays for
// neither. Runs in the CLI process.
import { ok, type Result } from '../../common/result.js';
import type { Remote } from '../remote/remotes-store.js';

export async function remoteOf(spec: string): Promise<Result<{ remote: Remote; session: string } | null>> {
  if (!spec.includes(':')) return ok(null);
  return (await import('./remote-target.js')).remoteTarget(spec);
}
