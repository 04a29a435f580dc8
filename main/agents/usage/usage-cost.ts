// The price of a request and the size of a model's context window (DESIGN.md §5 "Usage"), from
// @pydantic/genai-prices' bundled table (its data ships in the package; nothing here ever asks it to
// fetch, so prices change by upgrading the package), with a small table of windows it lacks. Per
// request, so the >200k-token tiers apply to the requests that crossed them. Runs in the daemon's process.
import { calcPrice } from '@pydantic/genai-prices';
import type { UsageRecord } from './usage-record.js';

/** The table's package and version, shown beside every figure (a test holds it to the installed one). */
export const PRICE_TABLE = '@pydantic/genai-prices 0.1.8';

/**
 * Context windows the package does not state (its model entries without `context_window`), from the
 * providers' model pages. In 0.1.8 these are gemini-2.5-pro and gemini-3-pro-preview (1,048,576
 * input tokens each on Google's model pages).
 */
const WINDOW_OVERRIDES: Readonly<Record<string, number>> = {
  'gemini-2.5-pro': 1_048_576,
  'gemini-3-pro-preview': 1_048_576,
};

/** What calcPrice counts: all input tokens, of which the cache reads and writes are parts. */
function priceUsage(r: UsageRecord): Record<string, number> {
  return { input_tokens: r.input + r.cacheRead + r.cacheWrite, cache_read_tokens: r.cacheRead, cache_write_tokens: r.cacheWrite, output_tokens: r.output };
}

function lookup(r: UsageRecord, provider: string): ReturnType<typeof calcPrice> {
  if (r.model === null) return null;
  try {
    return calcPrice(priceUsage(r), r.model, { providerId: provider, ...(Number.isNaN(r.atMs) ? {} : { timestamp: new Date(r.atMs) }) });
  } catch {
    // A model id the table's matchers reject: no price, as for an unknown one.
    return null;
  }
}

/** The request's price in USD, or null when the table does not know its model ("no price"). */
export function requestCost(r: UsageRecord, provider: string): number | null {
  const price = lookup(r, provider);
  return price === null ? null : price.total_price;
}

/** The model's context window in tokens, or null when neither the table nor the overrides know it. */
export function contextWindow(model: string | null, provider: string): number | null {
  if (model === null) return null;
  const override = WINDOW_OVERRIDES[model];
  if (override !== undefined) return override;
  const price = lookup({ atMs: NaN, model, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, contextTokens: 0, contextWindow: null }, provider);
  return price?.model.context_window ?? null;
}
