// `usage.read` (DESIGN.md §5 "Usage"): each named session's (all the supervisor holds when none)
// token usage, cost and context, from the daemon's usage readers; and the compact figures the
// listing carries for `mori ls`. Runs in the daemon.
import { DaemonSettings } from '../../../common/daemon-settings.js';
import { isOver, type ListedUsage } from '../../../common/usage-figures.js';
import type { SessionUsage } from '../../../common/usage.js';
import { contextShare, totalTokens } from '../../../common/usage.js';
import { ok, type Result } from '../../../common/result.js';
import type { SessionRecord } from '../../../common/session.js';
import { readSessionFile } from '../../state/session-file.js';
import { readSettings } from '../daemon-settings.js';
import { LISTING_WAIT_MS, type UsageBook } from '../usage-book.js';
import { sessionDir, type Handler } from './context.js';

/**
 * The share (0–1) past which a session says its context is large: settings.json's, read at each
 * request so a change counts at once (a settings file that does not read keeps the default).
 */
export function warnShare(home: string): number {
  const s = readSettings(home);
  return (s.ok ? s.value : DaemonSettings.parse({})).usage.contextWarnPercent / 100;
}

export const readUsage: Handler<'usage.read'> = async (p, ctx) => {
  const dirs: string[] = [];
  if (p.sessions.length === 0) dirs.push(...ctx.supervisor.list().map((s) => s.stateDir));
  for (const ref of p.sessions) {
    const s = sessionDir(ctx, ref);
    if (!s.ok) return s;
    dirs.push(s.value.stateDir);
  }
  const out: SessionUsage[] = [];
  const warn = warnShare(ctx.home);
  for (const dir of dirs) {
    const session = readSessionFile(dir);
    if (session.ok) out.push({ ...(await ctx.usage.read(session.value)), warnShare: warn });
    else if (p.sessions.length > 0) return session;
  }
  return ok(out) as Result<SessionUsage[]>;
};

/** A listing row's figures; `over` carries `warn` (the share set) when the context is past it. */
export async function listedUsage(book: UsageBook, session: SessionRecord, warn: number): Promise<ListedUsage | null> {
  const u = await book.read(session, LISTING_WAIT_MS);
  if (u.problem !== null && u.total.requests === 0) return null;
  const today = u.days.find((d) => d.day === u.today);
  const share = contextShare(u.last);
  return { todayTokens: today === undefined ? 0 : totalTokens(today), contextShare: share, ...(u.partial ? { partial: true } : {}), ...(isOver(share, warn) ? { over: warn } : {}) };
}
