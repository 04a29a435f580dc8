// The control API's `report.read` (DESIGN.md §9, "The report of the time away"): its parameters and
// the report's schema, which both ends check (the window shows it). The shapes are common/away-report.ts's.
// Pure TypeScript.
import * as z from 'zod/mini';
import './zod-english.js';

const Strings = z.array(z.string());
const At = z.number();

const Interruption = z.object({ kind: z.literal('interruption'), atMs: At, cause: z.enum(['crash', 'sleep', 'network', 'usage-limit', 'reboot', 'mori', 'other', 'attention']), words: z.string(), times: z.int(), outcome: z.enum(['resumed-by-id', 'resumed-fresh', 'resumed', 'handed-off', 'attention', 'stopped', 'finished', 'open']), endedAtMs: z.nullable(At), detail: z.string() });
const Checks = z.object({ kind: z.literal('checks'), atMs: At, text: z.string(), failing: Strings, wentRed: Strings, cameBack: Strings });
const Checkpoint = z.object({ kind: z.literal('checkpoint'), atMs: At, seq: z.int(), id: z.string(), reason: z.string(), files: z.int() });
const Problem = z.object({ problem: z.string() });

const AwaySessionSchema = z.object({
  id: z.string(),
  name: z.string(),
  agent: z.string(),
  needs: z.nullable(z.string()),
  timeline: z.array(z.discriminatedUnion('kind', [Interruption, Checks, Checkpoint])),
  checksBefore: z.nullable(Checks),
  checksNow: z.nullable(Checks),
  changes: z.nullable(z.union([z.object({ sinceSeq: z.int(), files: z.array(z.object({ path: z.string(), kind: z.string() })) }), Problem])),
  usage: z.union([z.object({ requests: z.int(), cost: z.number(), tokens: z.int(), unpriced: z.int(), fromDay: z.string(), priceTable: z.string() }), Problem]),
  account: z.union([z.object({ task: Strings, nextSteps: Strings, lastWorkingState: z.nullable(z.string()), logLines: Strings }), Problem]),
});

export const AwayReportSchema = z.object({
  sinceMs: At,
  nowMs: At,
  sinceFrom: z.enum(['last-looked', 'given', 'default']),
  needsYou: z.array(z.object({ session: z.string(), why: z.string() })),
  sessions: z.array(AwaySessionSchema),
  quiet: Strings,
});

/** `sinceMs`: from then; absent: since the window's last look. `looked`: move the window's mark to now after reading. */
export const ReportReadParams = z.object({ sinceMs: z.optional(z.number()), looked: z._default(z.boolean(), false) });
