// Whether a session reference names a remote's session (`host:session`), loading the remotes' code and
// reading remotes.json only when it has a `:` (DESIGN.md §12): a command on a local session pays for
// neither. Runs in the CLI process.
import { ok, type Result } from '../../common/result.js';
import type { Remote } from '../remote/remotes-store.js';
import { reportFailure, reportSuccess, type OutputOptions } from './output.js';
import type { RemoteOutcome } from './remote-commands.js';

type RemoteCommands = typeof import('./remote-commands.js');

export async function remoteOf(spec: string): Promise<Result<{ remote: Remote; session: string } | null>> {
  if (!spec.includes(':')) return ok(null);
  return (await import('./remote-target.js')).remoteTarget(spec);
}

/**
 * A command's remote branch: for `host:session`, runs `run` on that remote (remote-commands.ts, loaded
 * then) and prints its outcome as the command would; true when `spec` was such a reference (done),
 * false for a local one (the command goes on).
 */
export async function ranRemotely(spec: string, opts: OutputOptions, run: (m: RemoteCommands, remote: Remote, session: string) => Promise<Result<RemoteOutcome>>): Promise<boolean> {
  const target = await remoteOf(spec);
  if (!target.ok) {
    reportFailure(target, opts);
    return true;
  }
  if (!target.value) return false;
  const r = await run(await import('./remote-commands.js'), target.value.remote, target.value.session);
  if (r.ok) reportSuccess(r.value.value, r.value.text, opts);
  else reportFailure(r, opts);
  return true;
}
