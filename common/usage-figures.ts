// The pure arithmetic and words of usage figures (DESIGN.md §5 "Usage") that need no schema: a listing
// row's figures, token counts in a narrow column, a share as a percentage. Kept apart from usage.ts
// (zod schemas) so `mori ls` loads no schema for its column. Pure TypeScript.
import type { LastRequest, UsageTotals } from './usage.js';

/**
 * The context share (%) past which a session says so unless the person set another (settings.json's
 * `usage.contextWarnPercent`). 80 %: past it the agent is near compacting or forgetting, and a by-id
 * resume reloads most of a window.
 */
export const CONTEXT_WARN_PERCENT = 80;

/** What a listing row carries of a session's usage: today's tokens and the context's share of its window. */
export interface ListedUsage {
  todayTokens: number;
  /** 0–1, or null when the model's window is unknown. */
  contextShare: number | null;
  /** The record is still being read: the figures so far. */
  partial?: boolean;
  /** The share set (0–1) when the context is past it: the row says so. */
  over?: number;
}

/** Whether a context share is past the share the person set (either unknown: not). */
export const isOver = (share: number | null, warnShare: number | undefined): boolean => share !== null && warnShare !== undefined && share >= warnShare;

/** The cost fields of a total (a type only: no schema loaded). */
interface Costed {
  requests: number;
  cost: number;
  unpriced: number;
}

/** `$1.23`, `$1.23 + 2 requests with no price`, or `no price`. */
export function costText(t: Costed): string {
  if (t.requests > 0 && t.unpriced === t.requests) return 'no price';
  // Cents below a dollar would read as nothing: four decimals there.
  const usd = t.cost < 1 ? `$${t.cost.toFixed(4)}` : `$${t.cost.toFixed(2)}`;
  return t.unpriced > 0 ? `${usd} + ${t.unpriced} request${t.unpriced === 1 ? '' : 's'} with no price` : usd;
}

/** Three significant digits, without trailing zeros after the point. */
function short(x: number): string {
  const t = x.toPrecision(3);
  return t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t;
}

/** The event fields the next predicate reads (a type only: no schema loaded). */
interface EventLike {
  type: string;
  from?: unknown;
}

/**
 * Whether, after this daemon event, an agent's record may hold a new request (a turn ended, the
 * agent exited, stopped or was resumed) or the share set changed: the moments a client reads usage
 * again instead of on a timer.
 */
export const usageMayHaveChanged = (e: EventLike): boolean =>
  e.type === 'settings.changed' || (e.type === 'session.activity' && e.from === 'working') || e.type === 'session.exited' || e.type === 'session.resumed' || e.type === 'session.stopped';

/** `950`, `12.3k`, `4.56M`: a token count in a narrow column (three digits: what a person reads at a glance). */
export function compactTokens(n: number): string {
  if (n < 1000) return String(n);
  // Below this, three digits of thousands still round under 1000k.
  if (n < 999_500) return `${short(n / 1000)}k`;
  return `${short(n / 1_000_000)}M`;
}

/** `23 %`, or `?` when the share is unknown. */
export const percent = (share: number | null): string => (share === null ? '?' : `${Math.round(share * 100)} %`);

/** All tokens of a total. */
export const totalTokens = (t: UsageTotals): number => t.input + t.output + t.cacheRead + t.cacheWrite;

/** The last request's share of its window (0–1), or null when the window is unknown. */
export const contextShare = (last: LastRequest | null): number | null =>
  last === null || last.contextWindow === null || last.contextWindow === 0 ? null : last.contextTokens / last.contextWindow;

/** A notice's words for a conversation past the share set: "alpha: context 84 % full" and why it matters. */
export function contextOverWords(name: string, share: number, warn: number, model: string | null): { title: string; body: string } {
  return {
    title: `${name}: context ${percent(share)} full`,
    body: `The conversation fills ${percent(share)} of ${model ?? 'the model'}'s window, past the ${percent(warn)} you set: the agent is near compacting or forgetting, and a fresh start from the state files costs less than resuming it.`,
  };
}
