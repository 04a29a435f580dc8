// How usage figures read in the CLI (DESIGN.md §5 "Usage"): a session's line for `mori status` and
// `mori usage`'s table per session and per day (the shape of ccusage's daily report); and the one
// request that fetches them from the running daemon. Runs in the CLI process.
import { existsSync } from 'node:fs';
import type { Result } from '../../common/result.js';
import { fail } from '../../common/result.js';
import { compactTokens, costText, isOver, percent } from '../../common/usage-figures.js';
import { contextShare, totalTokens, type SessionUsage, type UsageTotals } from '../../common/usage.js';
import { visibleText } from '../../common/visible-text.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';
import { moriHome } from '../state/mori-home.js';

/** The daemon's figures for the sessions named (all when none); a failure when no daemon answers. */
export async function usageFromDaemon(sessions: string[], home = moriHome()): Promise<Result<SessionUsage[]>> {
  if (!existsSync(controlSocketPath(home))) return fail('disconnected', 'no Mori supervisor is running: usage is read by it (`mori up --daemon` starts one)');
  const { ControlClient } = await import('../daemon-client/control-client.js');
  const c = await ControlClient.connect(home, { client: `mori usage (pid ${process.pid})` });
  if (!c.ok) return c;
  try {
    return await c.value.request('usage.read', { sessions });
  } finally {
    c.value.close();
  }
}

export { costText };

/** `context 45.2k of 200k (23 %)`, or `context 45.2k (window unknown)`; null before any request. */
export function contextText(u: SessionUsage): string | null {
  if (u.last === null) return null;
  const win = u.last.contextWindow;
  if (win === null) return `context ${compactTokens(u.last.contextTokens)} (window unknown)`;
  const share = contextShare(u.last);
  const over = isOver(share, u.warnShare) ? `, over the ${percent(u.warnShare ?? null)} set` : '';
  return `context ${compactTokens(u.last.contextTokens)} of ${compactTokens(win)} (${percent(share)})${over}`;
}

/** `mori status`'s line: today, total, cost with its table, context. */
export function usageLine(u: SessionUsage): string {
  if (u.total.requests === 0) return `usage: none read${u.problem === null ? '' : ` (${visibleText(u.problem)})`}`;
  const today = u.days.find((d) => d.day === u.today);
  const ctx = contextText(u);
  return `usage: ${compactTokens(today === undefined ? 0 : totalTokens(today))} tokens today, ${compactTokens(totalTokens(u.total))} in all, ${costText(u.total)} (${u.priceTable})${ctx === null ? '' : `; ${ctx}`}`;
}

const pad = (s: string, n: number): string => (s.length >= n ? s : `${' '.repeat(n - s.length)}${s}`);

/** `mori usage`'s table: per session, a row per day from `since` (YYYY-MM-DD) on, then the session's total. */
export function usageTable(list: SessionUsage[], since: string | null): string {
  const head = `${'day'.padEnd(12)}${pad('input', 10)}${pad('output', 10)}${pad('cache w', 10)}${pad('cache r', 10)}${pad('total', 10)}  cost`;
  const row = (label: string, t: UsageTotals): string =>
    `${label.padEnd(12)}${pad(compactTokens(t.input), 10)}${pad(compactTokens(t.output), 10)}${pad(compactTokens(t.cacheWrite), 10)}${pad(compactTokens(t.cacheRead), 10)}${pad(compactTokens(totalTokens(t)), 10)}  ${costText(t)}`;
  const blocks = list.map((u) => {
    const days = u.days.filter((d) => since === null || d.day >= since);
    const title = `${visibleText(u.name)} (${u.profile})${u.problem === null ? '' : `: ${visibleText(u.problem)}`}${u.partial ? ' (still being read: the figures so far)' : ''}`;
    const ctx = contextText(u);
    return [title, head, ...days.map((d) => `${row(d.day, d)}  ${d.models.map(visibleText).join(', ')}`), row('total', u.total), ...(ctx === null ? [] : [ctx])].join('\n');
  });
  return [...blocks, `prices: ${list[0]?.priceTable ?? ''}`].join('\n\n');
}
