// Adds a session's usage records up per day (in a given time zone) as they are read, each request
// priced once as it comes in (DESIGN.md §5 "Usage"), and keeps the last request (not a subagent's)
// for the context figure. Runs in the daemon's process, inside a session's usage reader.
import { addTotals, emptyTotals, type LastRequest, type UsageDay, type UsageTotals } from '../../../common/usage.js';
import { contextWindow, requestCost } from './usage-cost.js';
import type { UsageRecord } from './usage-record.js';

/** `YYYY-MM-DD` of an instant in `zone` (en-CA writes dates in that form). */
export function dayFormatter(zone: string): (ms: number) => string {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (ms) => f.format(ms);
}

/** A record without a time is counted on the day before any other. */
const UNDATED = '0000-00-00';

export class UsageTally {
  private readonly days = new Map<string, UsageTotals>();
  private last_: LastRequest | null = null;
  private readonly dayOf: (ms: number) => string;

  constructor(
    private readonly provider: string,
    zone: string,
  ) {
    this.dayOf = dayFormatter(zone);
  }

  add(r: UsageRecord): void {
    const day = Number.isNaN(r.atMs) ? UNDATED : this.dayOf(r.atMs);
    const provider = r.provider ?? this.provider;
    const cost = requestCost(r, provider);
    const one: UsageTotals = {
      input: r.input,
      output: r.output,
      cacheRead: r.cacheRead,
      cacheWrite: r.cacheWrite,
      requests: 1,
      cost: cost ?? 0,
      unpriced: cost === null ? 1 : 0,
      models: r.model === null ? [] : [r.model],
    };
    this.days.set(day, addTotals(this.days.get(day) ?? emptyTotals(), one));
    if (r.subagent === true) return;
    this.last_ = {
      atMs: Number.isNaN(r.atMs) ? null : r.atMs,
      model: r.model,
      contextTokens: r.contextTokens,
      contextWindow: r.contextWindow ?? contextWindow(r.model, provider),
    };
  }

  /** Per day, oldest first. */
  perDay(): UsageDay[] {
    return [...this.days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, t]) => ({ ...t, day }));
  }

  total(): UsageTotals {
    return [...this.days.values()].reduce(addTotals, emptyTotals());
  }

  get last(): LastRequest | null {
    return this.last_;
  }
}
