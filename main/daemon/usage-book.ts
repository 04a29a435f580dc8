// The daemon's usage readers, one per session (DESIGN.md §5 "Usage"): held for the daemon's life so
// each listing reads only what the agents appended since the last, and the figures each session's
// `usage.read`, `mori ls` and `mori status` show. Runs in the daemon.
import type { SessionRecord } from '../../common/session.js';
import { emptyTotals, type SessionUsage } from '../../common/usage.js';
import type { Env } from '../agents/profile.js';
import { PROFILES } from '../agents/profiles.js';
import { SessionUsageReader } from '../agents/usage/session-usage.js';
import { PRICE_TABLE } from '../agents/usage/usage-cost.js';
import { dayFormatter } from '../agents/usage/usage-tally.js';
import type { ContextQuery, ContextUsage, ContextUsageSource } from '../supervisor/resume/resume-choice.js';

/**
 * How long `mori ls` waits for the records to be read (all sessions' reads run at once). A first
 * listing after the daemon starts may face gigabytes of transcripts: it shows what was read by then
 * (marked partial) and the reads go on, so the next listing has more; read up, a listing adds only
 * what was appended.
 */
export const LISTING_WAIT_MS = 500;

interface Held {
  profile: string;
  reader: SessionUsageReader;
  /** The read under way, if any: a listing that comes meanwhile waits for it instead of starting another. */
  reading: Promise<void> | null;
  /** The record was read up to its end (as of the last read that finished). */
  caughtUp: boolean;
}

export class UsageBook {
  private readonly readers = new Map<string, Held>();
  private readonly today: (ms: number) => string;

  constructor(
    private readonly env: Env,
    /** The zone days are counted in: the daemon's own unless given. */
    private readonly zone = Intl.DateTimeFormat().resolvedOptions().timeZone,
  ) {
    this.today = dayFormatter(this.zone);
  }

  /**
   * The session's figures after reading what its agent appended since the last call; with `waitMs`,
   * those read by then (`partial` when the read goes on).
   */
  async read(session: SessionRecord, waitMs: number | null = null, nowMs = Date.now()): Promise<SessionUsage> {
    const profile = session.agent.profile;
    const base = { id: session.id, name: session.name, profile, today: this.today(nowMs), priceTable: PRICE_TABLE };
    const source = PROFILES[profile].usage;
    if (source === undefined) return { ...base, problem: `${PROFILES[profile].label} keeps no usage record Mori reads`, days: [], total: emptyTotals(), last: null, partial: false };
    let held = this.readers.get(session.id);
    if (held === undefined || held.profile !== profile) {
      held = { profile, reader: new SessionUsageReader(source, this.env, this.zone), reading: null, caughtUp: false };
      this.readers.set(session.id, held);
    }
    const h = held;
    h.reading ??= h.reader
      .refresh({ agentSessionId: session.agent.sessionId, cwd: session.agent.cwd ?? session.projectDir })
      .then((caughtUp) => void (h.caughtUp = caughtUp))
      .finally(() => void (h.reading = null));
    const reading = h.reading;
    if (waitMs === null) await reading;
    else {
      // Cleared once the read wins: a listing would otherwise leave a timer per session behind.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, waitMs).unref()))]);
      clearTimeout(timer);
    }
    const { reader } = h;
    return { ...base, problem: reader.problem, days: reader.tally.perDay(), total: reader.tally.total(), last: reader.tally.last, partial: h.reading !== null || !h.caughtUp };
  }

  /**
   * The resume policy's source (resume-choice.ts): the last request's context in the conversation a
   * relaunch would resume, read up to its end. A reader per conversation, kept, so a session that
   * relaunches often reads only what was appended since.
   */
  readonly contextSource: ContextUsageSource = { lastContext: (q) => this.lastContext(q) };

  private readonly conversations = new Map<string, SessionUsageReader>();

  private async lastContext(q: ContextQuery): Promise<ContextUsage | undefined> {
    const source = PROFILES[q.profile].usage;
    if (source === undefined) return undefined;
    const key = `${q.profile}\0${q.agentSessionId}\0${q.cwd}`;
    let reader = this.conversations.get(key);
    if (reader === undefined) this.conversations.set(key, (reader = new SessionUsageReader(source, this.env, this.zone)));
    await reader.refresh({ agentSessionId: q.agentSessionId, cwd: q.cwd });
    const last = reader.tally.last;
    return last === null ? undefined : { lastContextTokens: last.contextTokens, contextWindow: last.contextWindow ?? undefined };
  }

  /** A removed session's reader is dropped. */
  forget(id: string): void {
    this.readers.delete(id);
  }
}
