// `mori usage [S] [--since DATE] [--json]`: token usage, cost and context per session and per day,
// as the running daemon reads them from each agent's own record (DESIGN.md §5 "Usage"). Runs in the
// CLI process.
import type { Command } from 'commander';
import { fail } from '../../../common/result.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { usageFromDaemon, usageTable } from '../usage-words.js';

/** `2026-12-06` or `20261206` (ccusage's form) as `2026-12-06`; null when neither. */
export function sinceDay(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  if (m === null) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? null : day;
}

export function registerUsage(program: Command): void {
  program
    .command('usage [session]')
    .description('token usage, cost and context per session and per day, from each agent\'s own record')
    .option('--since <date>', 'only days from this one on (YYYY-MM-DD or YYYYMMDD)')
    .option('--json', 'print JSON')
    .action(async (session: string | undefined, opts: OutputOptions & { since?: string }) => {
      const since = opts.since === undefined ? null : sinceDay(opts.since);
      if (opts.since !== undefined && since === null) return reportFailure(fail('usage', `--since "${opts.since}" is not a date (YYYY-MM-DD or YYYYMMDD)`), opts);
      const r = await usageFromDaemon(session === undefined ? [] : [session]);
      if (!r.ok) return reportFailure(r, opts);
      const sessions = r.value.map((u) => ({ ...u, days: u.days.filter((d) => since === null || d.day >= since) }));
      reportSuccess({ ok: true, since, sessions }, () => (sessions.length === 0 ? 'No sessions.' : usageTable(sessions, since)), opts);
    });
}
