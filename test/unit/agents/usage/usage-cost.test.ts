// What the price table is asked per request tallied (main/agents/usage/usage-cost.ts): a model's
// rates and window are found once and kept, so a listing that tallies one appended request per
// session asks the table nothing. The real table, its calls counted.
import { describe, expect, it, vi } from 'vitest';

const lookups = vi.hoisted(() => ({ n: 0 }));
vi.mock('@pydantic/genai-prices', async (importOriginal) => {
  const real = await importOriginal<typeof import('@pydantic/genai-prices')>();
  return { ...real, calcPrice: (...args: Parameters<typeof real.calcPrice>) => (lookups.n++, real.calcPrice(...args)) };
});

const { contextWindow } = await import('../../../../main/agents/usage/usage-cost.js');
const { UsageTally } = await import('../../../../main/agents/usage/usage-tally.js');

const request = (model: string, atMs: number) => ({ atMs, model, input: 742, output: 8, cacheRead: 8647, cacheWrite: 2965, contextTokens: 742 + 8647 + 2965, contextWindow: null });

describe('price table lookups', () => {
  it('looks a model’s window up once, a model the table lacks included', () => {
    for (const [model, window] of [['claude-sonnet-4-5', 200_000], ['claude-stand-in-9', null]] as const) {
      const before = lookups.n;
      expect(contextWindow(model, 'anthropic')).toBe(window);
      expect(lookups.n).toBeGreaterThan(before);
      const after = lookups.n;
      expect(contextWindow(model, 'anthropic')).toBe(window);
      expect(lookups.n).toBe(after);
    }
  });

  it('tallies further requests of a model and day without asking the table', () => {
    const atMs = Date.parse('2026-12-06T12:00:00Z');
    const tally = new UsageTally('anthropic', 'UTC');
    tally.add(request('claude-opus-5-5', atMs));
    const after = lookups.n;
    for (let i = 1; i <= 100; i++) tally.add(request('claude-opus-5-5', atMs + i * 1000));
    expect(lookups.n).toBe(after);
    expect(tally.total().requests).toBe(101);
    expect(tally.last).toMatchObject({ model: 'claude-opus-5-5', contextWindow: 1_000_000 });
  });
});
