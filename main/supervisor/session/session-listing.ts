// The registered sessions as `mori ls` lists them: what each one's state files say (session-summary),
// the state problem recorded for it, and what the running supervisor says of it now. One function for
// both ends: the daemon answers `sessions.listing` with it (its modules and parsers are warm), and the
// CLI calls it itself when no daemon answers. Any Node process.
import type { LiveSession } from '../../../common/ipc.js';
import type { Result } from '../../../common/result.js';
import { readRegistry } from '../../state/registry.js';
import { forgetSummariesExcept, summarize, summarizeCached, type StateDirSummary } from '../../state/session-summary.js';
import { readStateProblems, type StateProblem } from './state-problems.js';

/** `branch`: the branch of the session's own git worktree, when it has one; `sandboxed`: its agent runs in a sandbox. */
export type ListingEntry = StateDirSummary & { live: LiveSession | null; branch?: string; sandboxed: boolean; stateProblem?: StateProblem };

/**
 * Every registered session of `home`, in registry order; `live` is what the supervisor says by
 * session id. `cached`: a process that lists again and again (the daemon) reads a session's files
 * again only when one changed (session-summary.ts's summarizeCached).
 */
export function listRegisteredSessions(home: string, live: ReadonlyMap<string, LiveSession> | null, cached = false): Result<ListingEntry[]> {
  const reg = readRegistry(home);
  if (!reg.ok) return reg;
  const problems = readStateProblems(home);
  if (cached) forgetSummariesExcept(new Set(reg.value.map((e) => e.stateDir)));
  return {
    ok: true,
    value: reg.value.map((e) => {
      const s = cached ? summarizeCached(e.stateDir) : summarize(e.stateDir);
      const problem = problems.get(e.id);
      const branch = s.session?.worktree?.branch;
      return { ...s, live: live?.get(s.session?.id ?? e.id) ?? null, ...(branch ? { branch } : {}), sandboxed: s.session?.sandbox?.on === true, ...(problem ? { stateProblem: problem } : {}) };
    }),
  };
}
