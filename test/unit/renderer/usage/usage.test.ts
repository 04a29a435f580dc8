// The window's usage model and store (renderer/usage/): the meter's value and words, the badge past
// the share the person set, one notice per crossing (not per reading), the Usage tab's figures and
// bars; the store reads on open, after a turn's end or a change of settings, on its interval only
// while visible, and drops an overtaken answer. Plain Node: no page, an API answering when told.
import { describe, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../../common/ipc.js';
import type { MoriApi } from '../../../../common/mori-api.js';
import { emptyTotals, type SessionUsage, type UsageDay } from '../../../../common/usage.js';
import { crossingNotice, meterView, usageSummary } from '../../../../renderer/usage/usage-model.js';
import { USAGE_POLL_MS, UsageStore } from '../../../../renderer/usage/usage-store.js';

const day = (d: string, input: number, cost = 0.01): UsageDay => ({ ...emptyTotals(), day: d, input, requests: 1, cost, models: ['claude-sonnet-4-5'] });

function usage(contextTokens: number, over: Partial<SessionUsage> = {}): SessionUsage {
  const days = [day('2026-12-05', 30_000, 0.2), day('2026-12-06', 12_000, 0.05)];
  return {
    id: 's1',
    name: 'alpha',
    profile: 'claude',
    problem: null,
    days,
    total: { ...emptyTotals(), input: 42_000, requests: 2, cost: 0.25, models: ['claude-sonnet-4-5'] },
    last: { atMs: 1, model: 'claude-sonnet-4-5', contextTokens, contextWindow: 200_000 },
    today: '2026-12-06',
    priceTable: '@pydantic/genai-prices 0.0.40',
    partial: false,
    warnShare: 0.8,
    ...over,
  };
}

describe('usage model', () => {
  it('gives the meter its value, its words and a badge only past the share set', () => {
    expect(meterView(usage(50_000))).toEqual({ percent: 25, text: '50k of 200k tokens (25 %)', over: null });
    expect(meterView(usage(170_000))).toEqual({ percent: 85, text: '170k of 200k tokens (85 %)', over: 'over 80 %' });
    expect(meterView(usage(170_000, { warnShare: 0.9 }))?.over).toBeNull();
    expect(meterView(usage(5_000, { last: { atMs: 1, model: 'x', contextTokens: 5_000, contextWindow: null } }))).toEqual({ percent: null, text: '5k tokens (window unknown)', over: null });
    expect(meterView(usage(0, { last: null }))).toBeNull();
    expect(meterView(null)).toBeNull();
  });

  it('gives a notice when a reading crosses the share, not while it stays past it nor on the first reading', () => {
    expect(crossingNotice(usage(100_000), usage(170_000))).toBe("alpha's context passed 80 % of the model's window");
    expect(crossingNotice(usage(170_000), usage(180_000))).toBeNull();
    expect(crossingNotice(null, usage(180_000))).toBeNull();
    expect(crossingNotice(usage(100_000), usage(120_000))).toBeNull();
  });

  it('sums today, in all and the cost with its table, and scales the bars to the busiest day, oldest first', () => {
    const s = usageSummary(usage(1, { days: [day('2026-12-06', 12_000, 0.05), day('2026-12-05', 30_000, 0.2)] }));
    expect(s).toMatchObject({ today: '12k tokens', total: '42k tokens in 2 requests', cost: '$0.2500', priceTable: '@pydantic/genai-prices 0.0.40', note: null });
    expect(s.bars.map((b) => [b.day, b.words, b.height, b.cost])).toEqual([
      ['2026-12-05', '30k', 100, '$0.2000'],
      ['2026-12-06', '12k', 40, '$0.0500'],
    ]);
    expect(usageSummary(usage(1, { partial: true })).note).toMatch(/still being read/);
  });
});

interface Pending {
  params: Record<string, unknown>;
  answer: (value: SessionUsage[]) => void;
}

function harness() {
  const calls: Pending[] = [];
  const api = { call: (_m: string, params: Record<string, unknown>) => new Promise((resolve) => calls.push({ params, answer: (value) => resolve({ ok: true, value }) })) } as unknown as MoriApi;
  const listeners = new Set<(e: DaemonEvent) => void>();
  const ticks: (() => void)[] = [];
  const clock = { visible: true };
  const store = new UsageStore(api, 's1', (l) => (listeners.add(l), () => listeners.delete(l)), {
    every: (ms, f) => (expect(ms).toBe(USAGE_POLL_MS), ticks.push(f), () => ticks.splice(ticks.indexOf(f), 1)),
    visible: () => clock.visible,
  });
  const emit = (e: Record<string, unknown>): void => listeners.forEach((l) => l(e as unknown as DaemonEvent));
  return { store, calls, emit, ticks, clock, listeners };
}

const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('usage store', () => {
  it('reads on open, after a turn of its session ends, and on the interval only while visible', async () => {
    const h = harness();
    h.store.open();
    expect(h.calls.map((c) => c.params)).toEqual([{ sessions: ['s1'] }]);
    h.emit({ type: 'session.activity', sessionId: 's1', from: 'waiting', to: 'working' });
    h.emit({ type: 'session.activity', sessionId: 's2', from: 'working', to: 'waiting' });
    expect(h.calls).toHaveLength(1);
    h.emit({ type: 'session.activity', sessionId: 's1', from: 'working', to: 'waiting' });
    expect(h.calls).toHaveLength(2);
    h.emit({ type: 'settings.changed', at: 1, settings: {} });
    expect(h.calls).toHaveLength(3);
    h.calls.pop();
    h.clock.visible = false;
    h.ticks.forEach((t) => t());
    expect(h.calls).toHaveLength(2);
    h.clock.visible = true;
    h.ticks.forEach((t) => t());
    expect(h.calls).toHaveLength(3);
    h.store.close();
    expect(h.listeners.size).toBe(0);
    expect(h.ticks).toHaveLength(0);
  });

  it('keeps the newest answer, and says a crossing once', async () => {
    const h = harness();
    h.store.open();
    const second = h.store.read();
    h.calls[1]?.answer([usage(100_000)]);
    await second;
    h.calls[0]?.answer([usage(190_000)]);
    await flush();
    expect(h.store.state.usage?.last?.contextTokens).toBe(100_000);
    expect(h.store.state.notice).toBe('');
    const third = h.store.read();
    h.calls[2]?.answer([usage(170_000)]);
    await third;
    expect(h.store.state.notice).toBe("alpha's context passed 80 % of the model's window");
    const fourth = h.store.read();
    h.calls[3]?.answer([usage(175_000)]);
    await fourth;
    expect(h.store.state.usage?.last?.contextTokens).toBe(175_000);
    expect(h.store.state.notice).toBe("alpha's context passed 80 % of the model's window");
  });
});
