// A session's token usage, cost and context as the daemon reports it (DESIGN.md §5 "Usage"): per day
// and in total, each request priced when it was read, and the last request's context against the
// model's window. The schema both ends of the control API check, and the pure arithmetic of
// adding figures up. Pure TypeScript.
import * as z from 'zod/mini';

const Count = z.int().check(z.nonnegative());

/** Tokens (the four kinds do not overlap), what they cost and how many requests had no price. */
export const UsageTotals = z.object({
  input: Count,
  output: Count,
  cacheRead: Count,
  cacheWrite: Count,
  requests: Count,
  /** USD, summed over the requests the price table knows. */
  cost: z.number(),
  /** Requests whose model the table does not know: the cost leaves them out ("no price"). */
  unpriced: Count,
  /** The models the requests named. */
  models: z.array(z.string()),
});
export type UsageTotals = z.infer<typeof UsageTotals>;

export const UsageDay = z.object({ ...UsageTotals.shape, day: z.string() });
export type UsageDay = z.infer<typeof UsageDay>;

/** The last request: its model and the context it carried, against the model's window when known. */
export const LastRequest = z.object({
  atMs: z.nullable(z.number()),
  model: z.nullable(z.string()),
  contextTokens: Count,
  contextWindow: z.nullable(Count),
});
export type LastRequest = z.infer<typeof LastRequest>;

export const SessionUsage = z.object({
  id: z.string(),
  name: z.string(),
  profile: z.string(),
  /** Why there are no figures (the profile keeps no usage record, no agent session yet, the file refused), else null. */
  problem: z.nullable(z.string()),
  days: z.array(UsageDay),
  total: UsageTotals,
  last: z.nullable(LastRequest),
  /** The day (YYYY-MM-DD in the daemon's zone) "today" means in these figures. */
  today: z.string(),
  /** The price table and its version, said with every cost. */
  priceTable: z.string(),
  /** The record is still being read (a listing waits only so long): the figures so far. */
  partial: z._default(z.boolean(), false),
  /** The share of the window (0–1) past which the session says so (settings.json's `usage.contextWarnPercent`). */
  warnShare: z.optional(z.number()),
});
export type SessionUsage = z.infer<typeof SessionUsage>;

export const emptyTotals = (): UsageTotals => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests: 0, cost: 0, unpriced: 0, models: [] });


/** `b` added into `a` (a copy). */
export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    requests: a.requests + b.requests,
    cost: a.cost + b.cost,
    unpriced: a.unpriced + b.unpriced,
    models: [...new Set([...a.models, ...b.models])],
  };
}

// The arithmetic on these figures needs no schema: it lives in usage-figures.ts, where the window takes it from.
export { contextShare, totalTokens } from './usage-figures.js';
