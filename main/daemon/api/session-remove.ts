// `session.remove` (DESIGN.md §9, §12): the person removes a session, with its own git worktree after
// it when `removeWorktree` says so; both by the one removal (supervisor/session/session-removal.ts).
// Without `removeWorktree` the worktree stays and the answer says where. Runs in the daemon.
import { ok } from '../../../common/result.js';
import { removeWithWorktree, sessionWorktreeAt } from '../../supervisor/session/session-removal.js';
import { bad, sessionDir, type Handler } from './context.js';

/** The person removes a session (the approval gate refuses it from inside an agent); the daemon stops watching its files. */
export const removeSession: Handler<'session.remove'> = async (p, ctx) => {
  if (p.force && !p.removeWorktree) return bad('session.remove: force is only for removeWorktree');
  const dir = sessionDir(ctx, p.session);
  // Unless its worktree is to go too, a session whose files cannot be read is still removed.
  const found = dir.ok ? sessionWorktreeAt(dir.value.stateDir, ctx.home, p.removeWorktree) : p.removeWorktree ? dir : ok(null);
  if (!found.ok) return found;
  return removeWithWorktree(p.session, found.value, p, async () => {
    const r = await ctx.supervisor.admin.remove(p.session, p.deleteState);
    await ctx.events.sync();
    return r;
  });
};
