// The tray tooltip's usage line (DESIGN.md §5 "Usage", §13): today's tokens and cost across this
// host's sessions, summed from the daemon's `usage.read` (each session's day as the daemon counts
// it), read again only when the daemon's events say an agent may have made a request — never on a
// timer (a timed tray render reshuffles the macOS menu bar). Electron main process.
import { compactTokens, costText, usageMayHaveChanged } from '../../common/usage-figures.js';
import type { DaemonEvent, IpcResult } from '../../common/ipc.js';
import type { Result } from '../../common/result.js';
import { totalTokens } from '../../common/usage.js';

export interface TodayUsage {
  tokens: number;
  requests: number;
  cost: number;
  unpriced: number;
}

/** Today's figures summed over the sessions (each one's "today" is the daemon's day), or null with no request today. */
export function usageToday(list: IpcResult<'usage.read'>): TodayUsage | null {
  const out: TodayUsage = { tokens: 0, requests: 0, cost: 0, unpriced: 0 };
  for (const u of list) {
    const d = u.days.find((x) => x.day === u.today);
    if (d === undefined) continue;
    out.tokens += totalTokens(d);
    out.requests += d.requests;
    out.cost += d.cost;
    out.unpriced += d.unpriced;
  }
  return out.requests === 0 ? null : out;
}

/** `today: 24.6k tokens, $0.0787`. */
export const todayWords = (t: TodayUsage): string => `today: ${compactTokens(t.tokens)} tokens, ${costText(t)}`;

/** Keeps today's figures: read once at start and after each event that may change them; tells `onChange` when they changed. */
export class TrayUsage {
  private current: TodayUsage | null = null;
  private reading: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly request: (method: 'usage.read', params: { sessions: string[] }) => Promise<Result<IpcResult<'usage.read'>>>,
    private readonly onChange: () => void,
  ) {}

  today(): TodayUsage | null {
    return this.current;
  }

  /** The events the app heard: one read after them if any may have changed the figures. */
  heard(events: readonly DaemonEvent[]): void {
    // A read that throws (the connection closing meanwhile) keeps the figures as they were.
    if (events.some((e) => e.type === 'supervisor.ready' || usageMayHaveChanged(e))) this.refresh().catch(() => undefined);
  }

  /** Reads now; a call during a read makes one more read after it (never two at once). */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        const r = await this.request('usage.read', { sessions: [] });
        if (!r.ok) continue;
        const next = usageToday(r.value);
        if (JSON.stringify(next) === JSON.stringify(this.current)) continue;
        this.current = next;
        this.onChange();
      } while (this.again);
    })().finally(() => (this.reading = null));
    return this.reading;
  }
}
