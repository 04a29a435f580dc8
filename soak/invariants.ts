// The soak's invariant checkers: pure functions over what a run left (work logs, the agents' own
// records, the fault times, the states and figures read at the end), each returning the violations
// it found as sentences. Unit-tested on hand-made logs. Any process.

/** One record line of a soak agent (testkit/fake-agent.mjs, FAKE_AGENT_SOAK_DIR). */
export interface AgentRecord {
  event: string;
  pid: number;
  at: number;
  n?: number;
  line?: string;
  mode?: string;
  since?: number;
  /** A `limit` record's reset (epoch ms): the agent met its usage limit and takes no turn before it. */
  resetAt?: number;
}

/** Mori's lifecycle entries in a work log, in order. */
const ENTRY = /^- (SESSION INTERRUPTED|SESSION LIMITED|SESSION RESUMED|SESSION NEEDS ATTENTION|SESSION STARTED|SESSION STOPPED|SESSION FINISHED|REATTACHED)\b(.*)$/;

/** The interruptions that are the supervisor's own: the next supervisor finding the agent running (REATTACHED) answers them. */
const SUPERVISOR_OWN = / - (supervisor stopped|Mori exited)\b/;

/**
 * Every SESSION INTERRUPTED answered by a SESSION RESUMED (one resume answers every interruption
 * pending: it brings the agent back whatever stopped it) or a SESSION NEEDS ATTENTION with its
 * reason. REATTACHED answers only the supervisor's own interruptions (it stopped, and the next one
 * found the tmux agent still running): a sleep or network loss pending under it still needs its
 * resume, or the agent sits idle since. A resume with no interruption pending is a second resume for
 * one interruption; an interruption still pending at the end is unanswered (`settled`: the run is
 * over and the bound passed). One resume may follow an attention: the person's `mori start` once
 * they fixed what it named. A SESSION LIMITED is answered the same way, by the one resume after
 * the limit's reset (a limit kept across a restart of Mori is logged again, still one episode).
 */
export function checkInterruptions(workLog: string, settled: boolean): string[] {
  const out: string[] = [];
  let pending: string[] = [];
  let afterAttention = false;
  let lastResume = '';
  for (const line of workLog.split('\n')) {
    const m = ENTRY.exec(line);
    if (!m) continue;
    const [, kind, rest] = m;
    if (kind === 'SESSION INTERRUPTED' || kind === 'SESSION LIMITED') pending.push(line);
    else if (kind === 'SESSION RESUMED') {
      if (pending.length === 0 && !afterAttention) out.push(`a second resume for one interruption: "${line}" after "${lastResume}"`);
      pending = [];
      lastResume = line;
    } else if (kind === 'SESSION NEEDS ATTENTION') {
      if (!/^ - \S/.test(rest ?? '')) out.push(`an attention without its reason: "${line}"`);
      pending = [];
    } else if (kind === 'REATTACHED') pending = pending.filter((p) => !SUPERVISOR_OWN.test(p));
    else pending = [];
    afterAttention = kind === 'SESSION NEEDS ATTENTION';
  }
  if (settled && pending.length > 0) out.push(`an interruption never answered: "${pending[0]}"`);
  return out;
}

const SOAK_LINE = /^- soak (\S+) #(\d+) ok$/;

/** The agent's numbered lines all in the work log, in order, each whole; `written`: the numbers its record says it appended. */
export function checkWorkLogLines(workLog: string, tag: string, written: readonly number[]): string[] {
  const out: string[] = [];
  const seen: number[] = [];
  for (const line of workLog.split('\n')) {
    if (!line.includes('- soak ')) continue;
    const m = SOAK_LINE.exec(line);
    if (!m) {
      out.push(`a torn line: "${line.slice(0, 120)}"`);
      continue;
    }
    if (m[1] !== tag) continue;
    const n = Number(m[2]);
    const prev = seen[seen.length - 1];
    if (prev !== undefined && n <= prev) out.push(`line #${n} after #${prev}: out of order or twice`);
    seen.push(n);
  }
  const present = new Set(seen);
  const lost = written.filter((n) => !present.has(n));
  if (lost.length > 0) out.push(`${lost.length} line(s) the agent wrote are not in the work log: #${lost.slice(0, 10).join(', #')}`);
  return out;
}

/** No text typed twice into one agent: the same input twice in a row into one process with no fault between. */
export function checkTypedTwice(records: readonly AgentRecord[], faultTimes: readonly number[]): string[] {
  const out: string[] = [];
  const last = new Map<number, AgentRecord>();
  for (const r of records) {
    if (r.event !== 'input') continue;
    const prev = last.get(r.pid);
    if (prev && prev.line === r.line && !faultTimes.some((t) => t > prev.at && t <= r.at)) {
      out.push(`"${r.line?.slice(0, 80)}" typed twice into pid ${r.pid} (${r.at - prev.at} ms apart)`);
    }
    last.set(r.pid, r);
  }
  return out;
}

/**
 * How long a turn must have shown before a typed input counts as a nudge while the agent worked:
 * the screen's reading becomes current after 1.5 s (design §4), plus a second for a loaded machine.
 */
export const WORKING_GRACE_MS = 2_500;

/** No nudge while the agent worked: an input that came in a turn begun more than the grace before. */
export function checkNudgeWhileWorking(records: readonly AgentRecord[]): string[] {
  return records
    .filter((r) => r.event === 'input' && r.mode === 'working' && r.since !== undefined && r.at - r.since > WORKING_GRACE_MS)
    .map((r) => `"${r.line?.slice(0, 80)}" typed into pid ${r.pid} ${r.at - (r.since ?? 0)} ms into a turn`);
}

/** The live states a session may be left in once the faults are over: running, limited with a plan, in attention with a reason. */
const SETTLED = /^(running|limited|attention|finished)$/;

export function checkNotStuck(states: readonly { name: string; state: string }[]): string[] {
  return states.filter((s) => !SETTLED.test(s.state)).map((s) => `${s.name} is "${s.state}" past the bound`);
}

/** The daemon's RSS and open fds after the run within 10 % of their level after warm-up. */
export const GROWTH_ALLOWED = 0.1;

export function checkFootprint(warm: { rssKiB: number; fds: number } | null, end: { rssKiB: number; fds: number } | null): string[] {
  if (!warm || !end) return [`the daemon's footprint could not be read (${warm ? 'end' : 'warm-up'})`];
  const out: string[] = [];
  if (end.rssKiB > warm.rssKiB * (1 + GROWTH_ALLOWED)) out.push(`RSS ${warm.rssKiB} → ${end.rssKiB} KiB`);
  if (end.fds > warm.fds * (1 + GROWTH_ALLOWED)) out.push(`open fds ${warm.fds} → ${end.fds}`);
  return out;
}

/** No orphan: at most one agent per session, one tmux server and one daemon while it runs; none of them, and no private git dir, once it is down. */
export function checkOrphans(
  live: { agents: ReadonlyMap<number, readonly number[]>; tmux: readonly number[]; daemons: readonly number[] },
  down: { agents: number; daemons: number; privateGitDirs: number; directAgents: number },
): string[] {
  const out: string[] = [];
  for (const [i, pids] of live.agents) if (pids.length > 1) out.push(`session ${i} has ${pids.length} agents: ${pids.join(', ')}`);
  if (live.tmux.length > 1) out.push(`${live.tmux.length} tmux servers on one socket: ${live.tmux.join(', ')}`);
  if (live.daemons.length > 1) out.push(`${live.daemons.length} daemons for one home`);
  if (down.daemons > 0) out.push(`${down.daemons} daemon(s) alive after mori down`);
  if (down.directAgents > 0) out.push(`${down.directAgents} direct agent(s) alive after mori down`);
  if (down.privateGitDirs > 0) out.push(`${down.privateGitDirs} private git dir(s) left`);
  return out;
}

/** No file Mori does not own overwritten: each file's content at the end as at the start. */
export function checkUnowned(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  return [...before].filter(([f, h]) => after.get(f) !== h).map(([f]) => `${f} changed`);
}

/**
 * After a bad file was put back, the session goes on: its agent wrote a line after the restore, or it
 * ended in attention for a reason that is not that file (a crash loop the other faults caused).
 * `ends`: each session's state at the end and its attention's message, if any.
 */
export function checkGoesOn(
  restores: readonly { session: string; file: string; at: number }[],
  lineTimes: ReadonlyMap<string, readonly number[]>,
  ends: ReadonlyMap<string, { state: string; attention: string | null }>,
): string[] {
  const out: string[] = [];
  for (const r of restores) {
    if ((lineTimes.get(r.session) ?? []).some((t) => t > r.at)) continue;
    const end = ends.get(r.session);
    if (end?.state === 'attention' && end.attention !== null && !end.attention.includes(r.file)) continue;
    out.push(`${r.session} did not go on after ${r.file} was put back (at the end: ${end?.state ?? 'unknown'}${end?.attention ? `: ${end.attention}` : ''})`);
  }
  return out;
}

/**
 * session.json whole once every process is gone: there, not empty, JSON (an atomic write that failed,
 * on a full disk or anywhere, leaves the version before); its backup too when there is one.
 * `files`: each file's path and text (null when absent).
 */
export function checkSessionFiles(files: readonly { file: string; text: string | null; optional: boolean }[]): string[] {
  const out: string[] = [];
  for (const { file, text, optional } of files) {
    if (text === null) {
      if (!optional) out.push(`${file} is missing`);
      continue;
    }
    if (text.length === 0) {
      out.push(`${file} is empty`);
      continue;
    }
    try {
      JSON.parse(text);
    } catch {
      out.push(`${file} is not JSON (${text.length} bytes: ${JSON.stringify(text.slice(0, 60))}…)`);
    }
  }
  return out;
}

/** Mori's names for a write in flight: an append's lock markers, an atomic write's temp file. */
const IN_FLIGHT = /^work_log\.(?:appending|waiting)\.\d+\.[0-9a-f]+$|\.[0-9a-f]{12}\.tmp$/;
/** A write in flight lasts milliseconds: one older than this, its writer alive, was left behind. */
export const IN_FLIGHT_LEFT_MS = 2_000;

/**
 * Nothing of a failed write left in a state dir while its daemon runs: no lock marker or temp file
 * that was not there before (`before`: the names then) and is older than IN_FLIGHT_LEFT_MS.
 */
export function checkLeftovers(before: ReadonlySet<string>, now: readonly { name: string; ageMs: number; size: number }[]): string[] {
  return now
    .filter((f) => IN_FLIGHT.test(f.name) && !before.has(f.name) && f.ageMs > IN_FLIGHT_LEFT_MS)
    .map((f) => `${f.name} (${f.size} bytes, ${Math.round(f.ageMs / 1000)} s old) left behind`);
}

/**
 * The daemon's CPU back to idle once the run settled. The agents keep working in turns, so the
 * daemon is never idle: its level after warm-up (the same sessions working, no fault under way) is
 * the baseline. Allowed: CPU_FACTOR times that, plus CPU_SLACK of a core, as two readings of one
 * quiet daemon differ by a few hundredths of a core on a loaded machine; a timer or a watcher left
 * running per fault shows far past it.
 */
export const CPU_FACTOR = 2;
export const CPU_SLACK = 0.03;

/** `warm`, `end`: the daemon's share of one core; `spinning`: the world's processes past their bound at the end. */
/** The most CPU allowed at the end after `warm` at warm-up (shares of a core); none read: any end reading is taken again. */
export const cpuBound = (warm: number | null): number => (warm === null ? 0 : warm * CPU_FACTOR + CPU_SLACK);

export function checkCpu(warm: number | null, end: number | null, spinning: readonly { what: string; share: number }[]): string[] {
  const out: string[] = [];
  if (warm === null || end === null) out.push(`the daemon's CPU could not be read (${warm === null ? 'warm-up' : 'end'})`);
  else if (end > cpuBound(warm)) out.push(`the daemon's CPU ${Math.round(warm * 100)} % of a core after warm-up → ${Math.round(end * 100)} % after the run`);
  for (const s of spinning) out.push(`${s.what} spinning: ${Math.round(s.share * 100)} % of a core`);
  return out;
}
