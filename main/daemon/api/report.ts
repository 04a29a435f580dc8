// `report.read` (DESIGN.md §9, "The report of the time away"): the report over the sessions the
// supervisor holds, with the usage book's figures, since the moment asked or the window's last look
// ($MORI_HOME/last-looked.json's `window`), moving that mark when asked. Runs in the daemon.
import { buildAwayReport, type AwaySessionInput } from '../../../common/away-report.js';
import { ok } from '../../../common/result.js';
import { markLooked, readLastLooked } from '../../state/last-looked.js';
import { readSessionFile } from '../../state/session-file.js';
import { awayInputs } from '../../supervisor/away-inputs.js';
import { LISTING_WAIT_MS } from '../usage-book.js';
import type { Handler } from './context.js';

/** With no mark: a night's length, as `mori report`. */
const DEFAULT_LOOK_BACK_MS = 8 * 3_600_000;

const localDay = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export const readReport: Handler<'report.read'> = async (p, ctx) => {
  const nowMs = Date.now();
  const marks = readLastLooked(ctx.home);
  const mark = marks.ok ? marks.value['window'] : undefined;
  const [sinceMs, sinceFrom] = p.sinceMs !== undefined ? [p.sinceMs, 'given' as const] : mark !== undefined ? [mark, 'last-looked' as const] : [nowMs - DEFAULT_LOOK_BACK_MS, 'default' as const];
  const sessions = await Promise.all(
    ctx.supervisor.list().map(async (s) => {
      const record = readSessionFile(s.stateDir);
      let usage: AwaySessionInput['usage'] = { problem: record.ok ? 'not read' : record.message };
      if (record.ok) {
        const u = await ctx.usage.read(record.value, LISTING_WAIT_MS);
        usage = u.problem !== null ? { problem: u.problem } : { priceTable: u.priceTable, days: u.days.map((d) => ({ day: d.day, requests: d.requests, cost: d.cost, tokens: d.input + d.output + d.cacheRead + d.cacheWrite, unpriced: d.unpriced })) };
      }
      return awayInputs(s.stateDir, sinceMs, usage);
    }),
  );
  const report = buildAwayReport({ sinceMs, nowMs, sinceDay: localDay(sinceMs), sinceFrom, sessions });
  if (p.looked) {
    const moved = await markLooked(ctx.home, 'window', nowMs);
    if (!moved.ok) return moved;
  }
  return ok(report);
};
