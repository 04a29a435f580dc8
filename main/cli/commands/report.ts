// `mori report [--since 8h|DATE] [--json]`: the report of the time away (DESIGN.md §9), built from
// what Mori keeps for every registered session (main/supervisor/away-inputs.ts, common/away-report.ts)
// and the running daemon's usage figures when one answers. Without --since it reports since the
// person last ran it ($MORI_HOME/last-looked.json), then moves that mark. Runs in the CLI process.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { buildAwayReport, type AwaySessionInput } from '../../../common/away-report.js';
import { fail } from '../../../common/result.js';
import type { SessionUsage } from '../../../common/usage.js';
import { controlSocketPath } from '../../daemon/control-socket-path.js';
import { markLooked, readLastLooked } from '../../state/last-looked.js';
import { moriHome } from '../../state/mori-home.js';
import { readRegistry } from '../../state/registry.js';
import { awayInputs } from '../../supervisor/away-inputs.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { reportText } from '../report-text.js';
import { usageFromDaemon } from '../usage-words.js';

/** With no mark and no --since: a night's length. */
export const DEFAULT_LOOK_BACK_MS = 8 * 3_600_000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `8h`, `90m`, `2d` before now, or a date (`2026-12-06`, `2026-12-06 07:00`, ISO); null when neither. */
export function sinceMoment(text: string, nowMs: number): number | null {
  const rel = /^(\d+)\s*([mhd])$/.exec(text.trim());
  if (rel !== null) return nowMs - Number(rel[1]) * (UNIT_MS[rel[2] as string] as number);
  // A bare day is its local midnight, as a time without a zone is local.
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? `${text.trim()}T00:00` : text.trim());
  return Number.isFinite(ms) && ms <= nowMs ? ms : null;
}

const localDay = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function usageInput(u: SessionUsage | undefined, whyNone: string): AwaySessionInput['usage'] {
  if (u === undefined) return { problem: whyNone };
  if (u.problem !== null) return { problem: u.problem };
  return { priceTable: u.priceTable, days: u.days.map((d) => ({ day: d.day, requests: d.requests, cost: d.cost, tokens: d.input + d.output + d.cacheRead + d.cacheWrite, unpriced: d.unpriced })) };
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('what happened while you were away: interruptions and how they ended, checks, checkpoints, usage, and what needs you now')
    .option('--since <when>', 'from this moment: 8h, 90m, 2d, or a date and time (default: since you last ran it)')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions & { since?: string }) => {
      const home = moriHome();
      const nowMs = Date.now();
      let sinceMs: number;
      let sinceFrom: 'given' | 'last-looked' | 'default';
      if (opts.since !== undefined) {
        const given = sinceMoment(opts.since, nowMs);
        if (given === null) return reportFailure(fail('usage', `--since "${opts.since}" is neither a span (8h, 90m, 2d) nor a past date and time`), opts);
        [sinceMs, sinceFrom] = [given, 'given'];
      } else {
        const marks = readLastLooked(home);
        if (!marks.ok) process.stderr.write(`mori: ${marks.message}; reporting the last 8 hours\n`);
        const mark = marks.ok ? marks.value.cli : undefined;
        [sinceMs, sinceFrom] = mark !== undefined ? [mark, 'last-looked'] : [nowMs - DEFAULT_LOOK_BACK_MS, 'default'];
      }
      const registry = readRegistry(home);
      if (!registry.ok) return reportFailure(registry, opts);
      const daemon = existsSync(controlSocketPath(home)) ? await usageFromDaemon([], home) : null;
      const whyNone = daemon === null ? 'no Mori supervisor is running (usage is read by it)' : daemon.ok ? 'not read' : daemon.message;
      const usage = new Map((daemon?.ok ? daemon.value : []).map((u) => [u.id, u]));
      const sessions = await Promise.all(registry.value.map((e) => awayInputs(e.stateDir, sinceMs, usageInput(usage.get(e.id), whyNone))));
      const report = buildAwayReport({ sinceMs, nowMs, sinceDay: localDay(sinceMs), sinceFrom, sessions });
      reportSuccess({ ok: true, ...report }, () => reportText(report), opts);
      if (opts.since === undefined) {
        const moved = await markLooked(home, 'cli', nowMs);
        if (!moved.ok) process.stderr.write(`mori: ${moved.message}\n`);
      }
    });
}
