// The daemon's usage readers, one per session (DESIGN.md §5 "Usage"): held for the daemon's life so
// each listing reads only what the agents appended since the last, and the figures each session's
// `usage.read`, `mori ls` and `mori status` show. Runs in the daemon.
import type { SessionFile } from '../../common/session.js';
import { emptyTotals, type SessionUsage } from '../../common/usage.js';
import type { Env } from '../agents/profile.js';
import { PROFILES } from '../agents/profiles.js';
import { SessionUsageReader } from '../agents/usage/session-usage.js';
import { PRICE_TABLE } from '../agents/usage/usage-cost.js';
import { dayFormatter } from '../agents/usage/usage-tally.js';

export class UsageBook {
  private readonly readers = new Map<string, { profile: string; reader: SessionUsageReader }>();
  private readonly today: (ms: number) => string;

  constructor(
    private readonly env: Env,
    /** The zone days are counted in: the daemon's own unless given. */
    private readonly zone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  ) {
    this.today = dayFormatter(this.zone);
  }

  /** The session's figures now, after reading what its agent appended since the last call. */
  async read(session: SessionFile, nowMs = Date.now()): Promise<SessionUsage> {
    const profile = session.agent.profile;
    const base = { id: session.id, name: session.name, profile, today: this.today(nowMs), priceTable: PRICE_TABLE };
    const source = PROFILES[profile].usage;
    if (source === undefined) return { ...base, problem: `${PROFILES[profile].label} keeps no usage record Mori reads`, days: [], total: emptyTotals(), last: null };
    let held = this.readers.get(session.id);
    if (held === undefined || held.profile !== profile) {
      held = { profile, reader: new SessionUsageReader(source, this.env, this.zone) };
      this.readers.set(session.id, held);
    }
    const { reader } = held;
    await reader.refresh({ agentSessionId: session.agent.sessionId, cwd: session.agent.cwd ?? session.projectDir });
    return { ...base, problem: reader.problem, days: reader.tally.perDay(), total: reader.tally.total(), last: reader.tally.last };
  }

  /** A removed session's reader is dropped. */
  forget(id: string): void {
    this.readers.delete(id);
  }
}
