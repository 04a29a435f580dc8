// What the window shows of a session's usage (DESIGN.md §5 "Usage", §13): the header's context meter
// (the last request's context against the model's window, and whether it is past the share the
// person set), the Usage tab's figures (today, in all, the cost with its price table) and its bars
// per day, and when a new reading crosses the share (one notice per crossing). Pure: no DOM, no API.
import { compactTokens, contextShare, costText, isOver, percent, totalTokens } from '../../common/usage-figures.js';
import type { SessionUsage } from '../../common/usage.js';

export interface MeterView {
  /** 0–100 for a meter's value, or null when the model's window is unknown (no meter, words only). */
  percent: number | null;
  /** `12.4k of 1M tokens (1 %)`, or `12.4k tokens (window unknown)`. */
  text: string;
  /** The share set, in words, when the context is past it: `over 80 %`. */
  over: string | null;
}

/** The header's meter, or null before the session's first request was read. */
export function meterView(u: SessionUsage | null): MeterView | null {
  if (u === null || u.last === null) return null;
  const share = contextShare(u.last);
  const tokens = compactTokens(u.last.contextTokens);
  const win = u.last.contextWindow;
  return {
    percent: share === null ? null : Math.min(100, Math.round(share * 100)),
    text: win === null ? `${tokens} tokens (window unknown)` : `${tokens} of ${compactTokens(win)} tokens (${percent(share)})`,
    over: isOver(share, u.warnShare) ? `over ${percent(u.warnShare ?? null)}` : null,
  };
}

/** Whether the context is past the share set (false when either is unknown). */
export const overShare = (u: SessionUsage | null): boolean => u !== null && isOver(contextShare(u.last), u.warnShare);

/**
 * The notice a new reading gives: only when the session was read before under the share and is now
 * past it (the first reading of a session already past it shows the badge, not a notice).
 */
export function crossingNotice(before: SessionUsage | null, after: SessionUsage): string | null {
  if (before === null || overShare(before) || !overShare(after)) return null;
  return `${after.name}'s context passed ${percent(after.warnShare ?? null)} of the model's window`;
}

export interface DayBar {
  day: string;
  tokens: number;
  /** `24.6k`. */
  words: string;
  cost: string;
  /** The bar's height against the busiest day shown, 0–100. */
  height: number;
}

export interface UsageSummary {
  today: string;
  total: string;
  cost: string;
  priceTable: string;
  models: string;
  /** The last days with usage, oldest first. */
  bars: DayBar[];
  /** Why there are no figures, or that they are partial; null when they are whole. */
  note: string | null;
}

/** Days the chart shows: two weeks, what a glance at "this week and the last" needs. */
export const CHART_DAYS = 14;

/** The Usage tab's figures and chart. */
export function usageSummary(u: SessionUsage): UsageSummary {
  const today = u.days.find((d) => d.day === u.today);
  const shown = [...u.days].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)).slice(-CHART_DAYS);
  const most = Math.max(1, ...shown.map(totalTokens));
  const note = u.problem ?? (u.partial ? 'The record is still being read: the figures so far.' : null);
  return {
    today: `${compactTokens(today === undefined ? 0 : totalTokens(today))} tokens`,
    total: `${compactTokens(totalTokens(u.total))} tokens in ${u.total.requests} request${u.total.requests === 1 ? '' : 's'}`,
    cost: u.total.requests === 0 ? 'none' : costText(u.total),
    priceTable: u.priceTable,
    models: u.total.models.join(', '),
    bars: shown.map((d) => ({ day: d.day, tokens: totalTokens(d), words: compactTokens(totalTokens(d)), cost: d.requests === 0 ? 'none' : costText(d), height: Math.round((totalTokens(d) / most) * 100) })),
    note,
  };
}
