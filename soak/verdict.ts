// The soak's verdict: reads what a run left (each session's work log and archive, its agent's own
// record, its project's files Mori does not own) and runs every invariant checker over it, one
// counter per invariant and the sentences behind each. Runs in the soak's process.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sessionFiles } from './faults/disk-full.js';
import {
  checkInterruptions,
  checkSessionFiles,
  checkNudgeWhileWorking,
  checkTypedTwice,
  checkUnowned,
  checkWorkLogLines,
  type AgentRecord,
} from './invariants.js';
import { checkBackAfterNetwork, checkLimitInputs, checkLimitRelaunch, type FaultSpan } from './net-invariants.js';
import { isBadInput } from './schedule.js';
import type { World } from './world.js';

export const INVARIANTS = [
  'interruptions',
  'workLog',
  'unownedOverwritten',
  'corruptNamed',
  'goesOn',
  'typedTwice',
  'nudgeWhileWorking',
  'stuck',
  'footprint',
  'cpu',
  'orphans',
  'usageLimits',
  'diskFull',
  'stateFiles',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

export type Findings = Record<Invariant, { session: string | null; what: string }[]>;

export function emptyFindings(): Findings {
  return Object.fromEntries(INVARIANTS.map((k) => [k, []])) as unknown as Findings;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The whole work log as written: the archive's older entries, then the log. */
export function fullWorkLog(world: World, i: number): string {
  return read(path.join(world.stateDir(i), 'work_log.archive.md')) + read(path.join(world.stateDir(i), 'work_log.md'));
}

export function agentRecords(world: World, i: number): AgentRecord[] {
  return read(path.join(world.records, `${world.names[i]}.jsonl`))
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as AgentRecord];
      } catch {
        return [];
      }
    });
}

/** The files of a session Mori does not own (the agent's and the person's): its markdown state files but the work log. */
const UNOWNED = ['session_state.md', 'environment.md'];

export function unownedHashes(world: World): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < world.sessions; i++) {
    for (const f of UNOWNED) {
      const file = path.join(world.stateDir(i), f);
      out.set(file, createHash('sha256').update(read(file)).digest('hex'));
    }
  }
  return out;
}

/** Every checker over every session's files (`faultTimes`: when each fault began, for typed-twice). */
export function checkFiles(world: World, findings: Findings, faultTimes: readonly number[], before: ReadonlyMap<string, string>): void {
  for (let i = 0; i < world.sessions; i++) {
    const name = world.names[i]!;
    // The record first: the agent appends to the log before it records the line, so every line
    // recorded by then is already in the log read after it.
    const records = agentRecords(world, i);
    const log = fullWorkLog(world, i);
    const written = records.filter((r) => r.event === 'line' && r.n !== undefined).map((r) => r.n!);
    const add = (k: Invariant, list: string[]): void => void findings[k].push(...list.map((what) => ({ session: name, what })));
    add('interruptions', checkInterruptions(log, true));
    add('workLog', checkWorkLogLines(log, name, written));
    add('typedTwice', checkTypedTwice(records, faultTimes));
    add('nudgeWhileWorking', checkNudgeWhileWorking(records));
    add('usageLimits', checkLimitInputs(records));
  }
  findings.unownedOverwritten.push(...checkUnowned(before, unownedHashes(world)).map((what) => ({ session: null, what })));
}

/** Bad-input faults end with the soak's `mori start` (as the person who fixed the file) within this of their end. */
const PERSON_START_GRACE_MS = 5_000;

/**
 * The network's faults: every session (the real claude's too) back within `boundMs` of the network's return; no limited
 * session's agent started again before its reset but by the soak's `mori start` after a bad file
 * (net-invariants.ts).
 */
export function checkNetworkFaults(world: World, findings: Findings, faults: readonly FaultSpan[], boundMs: number): void {
  const sessions = world.names.map((name, i) => {
    const records = agentRecords(world, i);
    const personSpans = faults.filter((f) => f.session === i && isBadInput(f.kind)).map((f) => [f.at, f.endAt + PERSON_START_GRACE_MS] as const);
    findings.usageLimits.push(...checkLimitRelaunch(records, personSpans).map((what) => ({ session: name, what })));
    return { name, lines: records.filter((r) => r.event === 'line').map((r) => r.at), limits: records.filter((r) => r.event === 'limit').map((r) => r.at) };
  });
  // The real claude (index `sessions`, as its faults name it) is back once it asks its API again; it meets no usage limit.
  if (world.real) sessions.push({ name: world.real.name, lines: world.real.turns, limits: [] });
  findings.stuck.push(...checkBackAfterNetwork(faults, sessions, boundMs).map((what) => ({ session: null, what })));
}

/**
 * The longest a session took to be back: from a fault that hit it (its agent's kill, or any
 * daemon-wide fault) to its agent's next numbered line. A session left in attention is not back by
 * design and is left out from the fault that put it there; one at its usage limit between the fault
 * and its next line waited for the reset by design and is left out too.
 */
export function longestBack(
  world: World,
  faults: readonly { kind: string; session: number; at: number; endAt: number }[],
): { ms: number; session: string | null; fault: number | null } {
  let best = { ms: 0, session: null as string | null, fault: null as number | null };
  for (let i = 0; i < world.sessions; i++) {
    const records = agentRecords(world, i);
    const lines = records.filter((r) => r.event === 'line').map((r) => r.at);
    const limits = records.filter((r) => r.event === 'limit').map((r) => ({ at: r.at, resetAt: r.resetAt ?? r.at }));
    faults.forEach((f, k) => {
      if ((f.kind === 'kill-agent' || f.kind === 'kill-group') && f.session !== i) return;
      const next = lines.find((t) => t > f.endAt);
      // Waiting out a usage limit somewhere between the fault and its next line: back at the reset by design.
      if (next !== undefined && limits.some((l) => l.at < next && l.resetAt > f.at)) return;
      if (next !== undefined && next - f.at > best.ms) best = { ms: next - f.at, session: world.names[i]!, fault: k };
    });
  }
  return best;
}

/** Once every process is gone: each session's session.json (and backup) whole. */
export function checkStateFilesLeft(world: World): { session: string; what: string }[] {
  return world.names.flatMap((name, i) => checkSessionFiles(sessionFiles(world.stateDir(i))).map((what) => ({ session: name, what })));
}
