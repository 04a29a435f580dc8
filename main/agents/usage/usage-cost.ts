// The price of a request and the size of a model's context window (DESIGN.md §5 "Usage"), from
// @pydantic/genai-prices' bundled table (its data ships in the package; nothing here ever asks it to
// fetch, so prices change by upgrading the package), with a small table of windows it lacks. Per
// request, so the >200k-token tiers apply to the requests that crossed them. Runs in the daemon's process.
import { calcPrice, findProvider } from '@pydantic/genai-prices';
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

const providers = new Map<string, string>();

/**
 * The table's provider for one an agent names per request (opencode: `anthropic`, `openrouter`,
 * `github-copilot`…): itself when the table knows it, else '' so the model is matched by its name
 * alone (a gateway such as opencode's own `opencode` serving the providers' models).
 */
export function priceProvider(id: string): string {
  let found = providers.get(id);
  if (found === undefined) providers.set(id, (found = id !== '' && findProvider({ providerId: id }) !== undefined ? id : ''));
  return found;
}

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

/** Per-token rates of a model on a day, when its price is linear in the four counts below `tierStart` input tokens. */
interface Rates {
  base: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Requests with more input tokens than this are priced by the table itself (its tiers). */
  tierStart: number;
}

/** calcPrice takes about half a millisecond: a large record's thousands of requests are priced from rates found once. */
const rates = new Map<string, Rates | 'direct' | 'unknown'>();
/** Probe size: large enough that rates per token are exact in floating point, below any tier. */
const PROBE = 1000;

const at = (atMs: number): UsageRecord => ({ atMs, model: null, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, contextTokens: 0, contextWindow: null });

/** The rates of `r`'s model on its day; `direct` when its price is not linear (time-of-day prices, or a probe disagreed); `unknown` when the table lacks it. */
function ratesFor(r: UsageRecord, provider: string): Rates | 'direct' | 'unknown' {
  const day = Number.isNaN(r.atMs) ? '' : new Date(r.atMs).toISOString().slice(0, 10);
  const key = `${provider}\n${r.model ?? ''}\n${day}`;
  const known = rates.get(key);
  if (known !== undefined) return known;
  const probe = (fields: Partial<UsageRecord>): number | null => {
    const p = lookup({ ...at(r.atMs), model: r.model, ...fields }, provider);
    return p === null ? null : p.total_price;
  };
  const base = lookup({ ...at(r.atMs), model: r.model }, provider);
  let found: Rates | 'direct' | 'unknown' = base === null ? 'unknown' : 'direct';
  const timeOfDay = Array.isArray(base?.model.prices) && base.model.prices.some((c) => c.constraint?.type === 'time_of_date');
  if (base !== null && !timeOfDay) {
    const starts = Object.values(base.model_price).flatMap((v) => (typeof v === 'object' && v !== null ? v.tiers.map((t) => t.start) : []));
    const [i, o, cr, cw] = [probe({ input: PROBE }), probe({ output: PROBE }), probe({ cacheRead: PROBE }), probe({ cacheWrite: PROBE })];
    if (i !== null && o !== null && cr !== null && cw !== null) {
      const b = base.total_price;
      const rate = { base: b, input: (i - b) / PROBE, output: (o - b) / PROBE, cacheRead: (cr - b) / PROBE, cacheWrite: (cw - b) / PROBE, tierStart: Math.min(Infinity, ...starts) };
      // One mixed request checks the price is the sum of its parts.
      const mixed = { input: 1234, output: 567, cacheRead: 890, cacheWrite: 12 };
      const want = probe(mixed);
      const got = rate.base + rate.input * 1234 + rate.output * 567 + rate.cacheRead * 890 + rate.cacheWrite * 12;
      if (want !== null && Math.abs(want - got) <= 1e-9 * Math.max(1, want) && 1234 + 890 + 12 <= rate.tierStart) found = rate;
    }
  }
  rates.set(key, found);
  return found;
}

/** The request's price in USD, or null when the table does not know its model ("no price"). */
export function requestCost(r: UsageRecord, provider: string): number | null {
  if (r.model === null) return null;
  const rate = ratesFor(r, provider);
  if (rate === 'unknown') return null;
  if (rate !== 'direct' && r.input + r.cacheRead + r.cacheWrite <= rate.tierStart) {
    return rate.base + rate.input * r.input + rate.output * r.output + rate.cacheRead * r.cacheRead + rate.cacheWrite * r.cacheWrite;
  }
  const price = lookup(r, provider);
  return price === null ? null : price.total_price;
}

/**
 * Windows found, per provider and model: a lookup takes up to half a millisecond (an unknown model
 * runs every matcher of the table), and every request tallied asks for its model's window, so a
 * listing after one request was appended to each of a hundred records would spend ~40 ms here.
 */
const windows = new Map<string, number | null>();

/** The model's context window in tokens, or null when neither the table nor the overrides know it. */
export function contextWindow(model: string | null, provider: string): number | null {
  if (model === null) return null;
  const override = WINDOW_OVERRIDES[model];
  if (override !== undefined) return override;
  const key = `${provider}\n${model}`;
  const known = windows.get(key);
  if (known !== undefined) return known;
  const found = lookup({ ...at(NaN), model }, provider)?.model.context_window ?? null;
  windows.set(key, found);
  return found;
}
