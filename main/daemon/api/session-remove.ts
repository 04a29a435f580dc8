// `session.remove` (DESIGN.md §9, §12): the person removes a session; with `removeWorktree` its own git
// worktree goes after it (git/session-worktree.ts), the branch always kept. The worktree is checked
// before anything is removed, and again once the agent is stopped (it may have written meanwhile):
// uncommitted changes or commits no other branch holds refuse it (`conflict`) unless `force`. Without
// `removeWorktree` the worktree stays and the answer says where. Runs in the daemon.
import { fail, ok, type Result } from '../../../common/result.js';
import type { SessionWorktree } from '../../../common/session.js';
import { readSessionFile } from '../../state/session-file.js';
import { checkedForRemoval, removeSessionWorktree, sessionWorktreeOf } from '../../git/session-worktree.js';
import { bad, sessionDir, type DaemonContext, type Handler } from './context.js';

/** The session's own worktree, or null without one; when `strict` (it is to be removed) a session or worktree that cannot be read is the answer. */
function worktreeOfSession(ctx: DaemonContext, ref: string, strict: boolean): Result<SessionWorktree | null> {
  const dir = sessionDir(ctx, ref);
  if (!dir.ok) return strict ? dir : ok(null);
  const session = readSessionFile(dir.value.stateDir);
  if (!session.ok) return strict ? session : ok(null);
  const wt = sessionWorktreeOf(dir.value.stateDir, session.value, ctx.home);
  return wt.ok || strict ? wt : ok(null);
}

/** The person removes a session (the approval gate refuses it from inside an agent); the daemon stops watching its files. */
export const removeSession: Handler<'session.remove'> = async (p, ctx) => {
  if (p.force && !p.removeWorktree) return bad('session.remove: force is only for removeWorktree');
  const found = worktreeOfSession(ctx, p.session, p.removeWorktree);
  if (!found.ok) return found;
  const tree = found.value;
  if (p.removeWorktree) {
    if (tree === null) return bad(`session "${p.session}" has no worktree of its own`);
    const checked = await checkedForRemoval(tree, p.force);
    if (!checked.ok) return fail(checked.code, `${checked.message}; nothing was removed`);
  }
  const r = await ctx.supervisor.admin.remove(p.session, p.deleteState);
  await ctx.events.sync();
  if (!r.ok || tree === null) return r;
  if (!p.removeWorktree) return ok({ ...r.value, worktree: { ...tree, removed: false } });
  const again = await checkedForRemoval(tree, p.force);
  if (!again.ok) return fail('failed', `removed session "${r.value.name}", but kept its worktree: ${again.message}`);
  const gone = await removeSessionWorktree(tree);
  if (!gone.ok) return fail(gone.code, `removed session "${r.value.name}", but not its worktree: ${gone.message}`);
  return ok({ ...r.value, worktree: { ...tree, removed: true } });
};
