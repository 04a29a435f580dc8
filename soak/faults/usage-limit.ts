// The soak's usage limit: one session's agent meets its usage limit with a reset about a minute
// ahead. The soak writes the limit into the agent's control file (<records>/<name>.limit.json,
// testkit/fake-agent-soak.mjs), which the agent reads at its next turn: the turn ends on Claude
// Code's limit line (its StopFailure hook too) and the agent waits, taking no turn of its own, until
// something is typed after the reset. The fault checks that Mori puts the session in `limited` with
// the plan the line names (its reset, the resume within the jitter after it); the run's end waits
// out the last reset, and the checkers (invariants.ts) find the one resume after it. Runs in the
// soak's process.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SOAK_LIMIT_JITTER_MS, type World } from '../world.js';
import { agentRecords } from '../verdict.js';
import type { Outcome } from './processes.js';

/** The agent reads its control file at its next turn: within a turn and an idle time (1.5 s each) and a `mori ls`, or it takes none now (not running, at its API error). */
const MET_BOUND_MS = 8_000;
/** After the agent met its limit, Mori's plan in `mori ls` within this long: its hook is read at once, its screen after 1.5 s; `mori ls` is a Node start on a loaded machine. */
const PLAN_BOUND_MS = 15_000;
/** `mori ls` and the records are read at most twice a second. */
const POLL_MS = 500;

export interface LimitControl {
  text: string;
  resetAt: number;
}

export const limitFile = (world: World, session: number): string => path.join(world.records, `${world.names[session]}.limit.json`);

export function readLimit(file: string): LimitControl | null {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<LimitControl>;
    return typeof v.text === 'string' && typeof v.resetAt === 'number' ? { text: v.text, resetAt: v.resetAt } : null;
  } catch {
    return null;
  }
}

/**
 * Claude Code's words for a limit whose reset is `aheadMs` after `now`, in one of its two forms by
 * `variant`: 1.0.x's epoch seconds (`Claude AI usage limit reached|1765000000`), or 2.1.x's clock time
 * in a named zone (`You've hit your session limit · resets 3:05am (UTC)`), whose reset is the minute
 * it names (so up to a minute later than asked).
 */
export function limitLine(now: number, aheadMs: number, variant: number): LimitControl {
  if (variant % 2 === 0) {
    const sec = Math.ceil((now + aheadMs) / 1000);
    return { text: `Claude AI usage limit reached|${sec}`, resetAt: sec * 1000 };
  }
  const reset = new Date(Math.ceil((now + aheadMs) / 60_000) * 60_000);
  const h = reset.getUTCHours();
  const clock = `${((h + 11) % 12) + 1}:${String(reset.getUTCMinutes()).padStart(2, '0')}${h < 12 ? 'am' : 'pm'}`;
  return { text: `You've hit your session limit · resets ${clock} (UTC)`, resetAt: reset.getTime() };
}

interface LivePlan {
  state: string;
  usageLimit: { resetAt: number | null; resumeAt: number } | null;
}

function liveOf(world: World, name: string): LivePlan | null {
  const r = world.mori('ls', '--json');
  try {
    const sessions = (JSON.parse(r.stdout) as { sessions: { session?: { name?: string }; live?: (LivePlan & { name?: string }) | null }[] }).sessions;
    const live = sessions.find((s) => s.session?.name === name || s.live?.name === name)?.live;
    return live ? { state: live.state, usageLimit: live.usageLimit ?? null } : null;
  } catch {
    return null;
  }
}

export interface LimitOutcome extends Outcome {
  problems: string[];
  /** Where its problems are counted. */
  invariant: 'usageLimits';
}

/** `aheadMs` (the schedule's hold) says how far ahead the reset is; its parity, which form the line takes. */
export async function usageLimit(world: World, session: number, aheadMs: number): Promise<LimitOutcome> {
  const name = world.names[session]!;
  const file = limitFile(world, session);
  const pending = readLimit(file);
  if (pending !== null && pending.resetAt > Date.now()) return { note: `already at a limit until ${new Date(pending.resetAt).toISOString()}`, problems: [], invariant: 'usageLimits' };
  const limit = limitLine(Date.now(), aheadMs, aheadMs);
  writeFileSync(`${file}.tmp`, JSON.stringify(limit));
  renameSync(`${file}.tmp`, file);
  const written = Date.now();
  const said = `"${limit.text}" (resets ${new Date(limit.resetAt).toISOString()})`;

  const met = (): boolean => agentRecords(world, session).some((r) => r.event === 'limit' && r.at >= written);
  while (!met() && Date.now() - written < MET_BOUND_MS) await new Promise((r) => setTimeout(r, POLL_MS));
  if (!met()) return { note: `${said}: not met yet (its agent took no turn within ${MET_BOUND_MS} ms)`, problems: [], invariant: 'usageLimits' };

  const planned = (live: LivePlan | null): boolean => {
    const plan = live?.usageLimit;
    return live?.state === 'limited' && plan?.resetAt === limit.resetAt && plan.resumeAt >= limit.resetAt && plan.resumeAt <= limit.resetAt + SOAK_LIMIT_JITTER_MS;
  };
  const metAt = Date.now();
  let live = liveOf(world, name);
  while (!planned(live) && Date.now() - metAt < PLAN_BOUND_MS) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    live = liveOf(world, name);
  }
  if (planned(live)) return { note: `${said}: limited, plan ${JSON.stringify(live?.usageLimit)}`, problems: [], invariant: 'usageLimits' };
  return {
    note: `${said}: not limited with its plan`,
    problems: [`${name}: its agent met ${said} but after ${PLAN_BOUND_MS} ms mori ls says ${live?.state ?? 'nothing'}, plan ${JSON.stringify(live?.usageLimit ?? null)}`],
    invariant: 'usageLimits',
  };
}

/** Waits until every limit set in this run has reset and its resume's jitter passed: the run's end then finds each one resumed. */
export async function limitsDue(world: World): Promise<void> {
  const last = Math.max(0, ...world.names.map((_, i) => readLimit(limitFile(world, i))?.resetAt ?? 0));
  const wait = last + SOAK_LIMIT_JITTER_MS - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
