// `usage.read` (DESIGN.md §5 "Usage"): each named session's (all the supervisor holds when none)
// token usage, cost and context, from the daemon's usage readers; and the compact figures the
// listing carries for `mori ls`. Runs in the daemon.
import type { ListedUsage } from '../../../common/usage-figures.js';
import type { SessionUsage } from '../../../common/usage.js';
import { contextShare, totalTokens } from '../../../common/usage.js';
import { ok, type Result } from '../../../common/result.js';
import type { SessionRecord } from '../../../common/session.js';
import { readSessionFile } from '../../state/session-file.js';
import { LISTING_WAIT_MS, type UsageBook } from '../usage-book.js';
import { sessionDir, type Handler } from './context.js';

export const readUsage: Handler<'usage.read'> = async (p, ctx) => {
  const dirs: string[] = [];
  if (p.sessions.length === 0) dirs.push(...ctx.supervisor.list().map((s) => s.stateDir));
  for (const ref of p.sessions) {
    const s = sessionDir(ctx, ref);
    if (!s.ok) return s;
    dirs.push(s.value.stateDir);
  }
  const out: SessionUsage[] = [];
  for (const dir of dirs) {
    const session = readSessionFile(dir);
    if (session.ok) out.push(await ctx.usage.read(session.value));
    else if (p.sessions.length > 0) return session;
  }
  return ok(out) as Result<SessionUsage[]>;
};

export async function listedUsage(book: UsageBook, session: SessionRecord): Promise<ListedUsage | null> {
  const u = await book.read(session, LISTING_WAIT_MS);
  if (u.problem !== null && u.total.requests === 0) return null;
  const today = u.days.find((d) => d.day === u.today);
  return { todayTokens: today === undefined ? 0 : totalTokens(today), contextShare: contextShare(u.last), ...(u.partial ? { partial: true } : {}) };
}
