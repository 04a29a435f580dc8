// The soak's checkers for the network's faults (soak/faults/network.ts, usage-limit.ts): pure
// functions over the agents' records, the fault times and the live states, each returning the
// violations it found as sentences (as invariants.ts's). Unit-tested on hand-made records. Any process.
import type { AgentRecord } from './invariants.js';

/**
 * After the agent met its limit, the daemon reads it from the StopFailure hook at once and from the
 * screen once it is current (1.5 s); an input typed within this grace (a nudge decided just before)
 * is not yet one into a session Mori knew limited. A second more for a loaded machine.
 */
export const LIMIT_SEEN_GRACE_MS = 3_000;

/**
 * Nothing typed into an agent at its usage limit before the reset: from its `limit` record (past the
 * grace) to the reset, no input into the same process. Typed then, a real CLI only meets its limit
 * again; the one resume is due after the reset.
 */
export function checkLimitInputs(records: readonly AgentRecord[]): string[] {
  const out: string[] = [];
  for (const limit of records) {
    if (limit.event !== 'limit' || limit.resetAt === undefined) continue;
    const early = records.filter((r) => r.event === 'input' && r.pid === limit.pid && r.at > limit.at + LIMIT_SEEN_GRACE_MS && r.at < limit.resetAt!);
    for (const r of early) out.push(`"${r.line?.slice(0, 80)}" typed into pid ${r.pid} at its usage limit, ${Math.round((limit.resetAt - r.at) / 1000)} s before its reset`);
  }
  return out;
}

/**
 * No agent of a limited session started again before its reset: Mori relaunches it at the plan's
 * time, and a restart of Mori meanwhile keeps it limited (a relaunch would only meet the limit
 * again). A start within the grace after the limit (Mori had not read it yet), or within one of
 * `personSpans` (the soak's `mori start`, as a person who fixed a bad file), is not one.
 */
export function checkLimitRelaunch(records: readonly AgentRecord[], personSpans: readonly (readonly [number, number])[]): string[] {
  const out: string[] = [];
  for (const limit of records) {
    if (limit.event !== 'limit' || limit.resetAt === undefined) continue;
    const early = records.filter(
      (r) => r.event === 'start' && r.pid !== limit.pid && r.at > limit.at + LIMIT_SEEN_GRACE_MS && r.at < limit.resetAt! && !personSpans.some(([from, to]) => r.at >= from && r.at <= to),
    );
    // Each early start once: a later limit record of the same reset names it again.
    for (const r of early) {
      const line = `agent pid ${r.pid} started ${Math.round((limit.resetAt - r.at) / 1000)} s before its usage limit's reset`;
      if (!out.includes(line)) out.push(line);
    }
  }
  return out;
}

/**
 * The state a `limited` session is counted in at the end, when the run has waited out every reset
 * and its jitter: `limited` (settled: it waits out its limit) only while its plan's resume is ahead;
 * without a plan, or past its resume time, it is not settled (the settling bound is the resume's
 * time to come). Any other state is itself.
 */
export function limitedState(state: string, plan: { resumeAt: number } | null | undefined, now: number): string {
  if (state !== 'limited') return state;
  if (!plan) return 'limited without a plan';
  if (now > plan.resumeAt) return `limited ${Math.round((now - plan.resumeAt) / 1000)} s past its resume time`;
  return state;
}

/** A fault as the checkers see it: its kind, its session, when it began and ended. */
export interface FaultSpan {
  /** Its place in the schedule. */
  i: number;
  kind: string;
  session: number;
  at: number;
  endAt: number;
}

/** Kinds that hit one session only (its agent killed, its file made bad, its limit); every other kind hits all. */
const ONE_SESSION = /^(kill-agent|kill-group|bad-session-json|fifo-state|symlink-state|huge-state|rewrite-work-log|usage-limit)$/;
export const hits = (f: FaultSpan, session: number): boolean => !ONE_SESSION.test(f.kind) || f.session === session;

/**
 * A network lost (or an API outage) is over when the fault ends; every session must then be back
 * within `boundMs`: its agent's next line within the bound, unless another fault hit it first (the
 * next fault is answered in its turn), it met its usage limit meanwhile (back after the reset), or
 * it wrote no line again at all (the states at the end say whether that is attention or stuck).
 * While the network is down, nothing is asked of a session.
 */
export function checkBackAfterNetwork(
  faults: readonly FaultSpan[],
  sessions: readonly { name: string; lines: readonly number[]; limits: readonly number[] }[],
  boundMs: number,
): string[] {
  const out: string[] = [];
  faults.forEach((f, k) => {
    if (f.kind !== 'network' && f.kind !== 'api-outage') return;
    sessions.forEach((s, i) => {
      const nextFault = faults.slice(k + 1).find((g) => hits(g, i))?.at ?? Infinity;
      const next = s.lines.find((t) => t > f.endAt);
      const by = Math.min(next ?? Infinity, nextFault, f.endAt + boundMs);
      if (s.limits.some((t) => t > f.at && t <= by)) return;
      if (next !== undefined && next <= f.endAt + boundMs) return;
      if (nextFault <= f.endAt + boundMs) return;
      if (next === undefined) return;
      out.push(`${s.name} wrote again ${Math.round((next - f.endAt) / 1000)} s after the ${f.kind} of fault #${f.i} was over (bound ${boundMs / 1000} s)`);
    });
  });
  return out;
}
