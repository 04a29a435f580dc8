// The soak's run: sessions of the soak agent under the real daemon, warmed up, then faults from the
// seeded schedule one after another, then a settling bound, the figures and every invariant
// checked; the real Claude Code's session among them when installed (soak/real-claude.ts). Returns
// one JSON-ready result; prints nothing but progress on `log`. Runs in the soak's process.
import { badInput, type BadInputOutcome } from './faults/bad-input.js';
import { downUp } from './faults/daemon-cycle.js';
import { diskFull, diskFullAtEnd } from './faults/disk-full.js';
import { killAgent, killDaemon, killGroup, killTmux, type Outcome } from './faults/processes.js';
import { sleep } from './faults/sleep.js';
import { apiOutage, networkLoss } from './faults/network.js';
import { limitsDue, usageLimit, type LimitOutcome } from './faults/usage-limit.js';
import { limitedState } from './net-invariants.js';
import { checkCpu, checkFootprint, cpuBound, checkGoesOn, checkNotStuck, checkOrphans } from './invariants.js';
import { processAgeMs, quietWindow, restingWindow, type Quiet } from './quiet.js';
import { FAULT_KINDS, isBadInput, schedule, type Fault, type FaultKind } from './schedule.js';
import { agentRecords, checkFiles, checkNetworkFaults, checkStateFilesLeft, emptyFindings, fullWorkLog, INVARIANTS, longestBack, unownedHashes, type Findings } from './verdict.js';
import { describe, footprint, World } from './world.js';
import { aimAtReal } from './real-claude.js';
import { until } from '../testkit/until.js';

export interface SoakOptions {
  seed: number;
  /** Stop after this many faults, or … */
  faults?: number;
  /** … after this many minutes of faults. */
  minutes?: number;
  sessions: number;
  /** Keep the temp root (its logs) after the run. */
  keep?: boolean;
  /** Written to the daemon's settings.json before `mori up`: a long run kills each session more often than the built-in crash-loop count. */
  crashLoopCount?: number;
  /** Draw only these kinds (a replay narrowed to the faults that matter); every kind when absent. */
  kinds?: readonly FaultKind[];
  log?: (line: string) => void;
}

export interface FaultDone extends Fault {
  at: number;
  endAt: number;
  note: string;
}

/** The daemon's footprint is sampled this often (in faults) for the figures' track. */
const TRACK_EVERY = 25;
/** After the last fault, every session must be back (running and writing, limited, or in attention) within this bound. */
export const SETTLE_BOUND_MS = 120_000;
/** Warm-up: each session has written this many lines before the first fault and the footprint read. */
const WARM_LINES = 2;
/** The warm-up's sleep: past the drift detector's 5 s threshold and its 1 s tick. */
const WARM_SLEEP_MS = 6_500;
/** Starting 20 sessions (a Node start and a git repository each) on two loaded cores. */
const WARM_BOUND_MS = 180_000;
/** `mori down` ends the daemon after its checkpoints: seconds on a loaded machine. */
const DOWN_BOUND_MS = 30_000;
/** Polls that run `mori ls` or read every record: a Node start each, so twice a second at most. */
const POLL_MS = 500;
/** Two reads of what runs this far apart: a fork not yet exec'd or a process exiting is not in both. */
const LASTING_MS = 2_000;
/** Faults a `--minutes` run draws its schedule from: more than any run reaches (one a second at most). */
const MINUTES_SCHEDULE = 100_000;

/** Kinds the issue names that this soak does not inject yet, with why: said in the JSON, never silently left out. */
export const SKIPPED: Record<string, string> = {};

async function inject(world: World, f: Fault): Promise<Outcome & Partial<BadInputOutcome> & Partial<LimitOutcome>> {
  if (isBadInput(f.kind)) return badInput(world, f.kind, f.session, f.holdMs);
  switch (f.kind) {
    case 'kill-agent':
      return killAgent(world, f.session);
    case 'kill-group':
      return killGroup(world, f.session);
    case 'kill-daemon':
      return killDaemon(world, f.holdMs);
    case 'kill-tmux':
      return killTmux(world);
    case 'down-up':
      return downUp(world, f.holdMs);
    case 'sleep':
      return sleep(world, f.holdMs);
    case 'network':
      return networkLoss(world, f.holdMs);
    case 'api-outage':
      return apiOutage(world, f.holdMs);
    case 'usage-limit':
      return usageLimit(world, f.session, f.holdMs);
    case 'disk-full':
      return diskFull(world, f.holdMs);
  }
}

const lineCount = (world: World, i: number): number => agentRecords(world, i).filter((r) => r.event === 'line').length;
/** Every session's name: the fake ones', then the real claude's. */
const allNames = (world: World): string[] => [...world.names, ...(world.real ? [world.real.name] : [])];
/** Whether session `i` worked since `t`: a fake agent's numbered line, the real claude's request to its API. */
const workedSince = (world: World, i: number, t: number): boolean =>
  i < world.sessions ? agentRecords(world, i).some((r) => r.event === 'line' && r.at > t) : world.real?.asked(t) === true;

export async function runSoak(opts: SoakOptions): Promise<Record<string, unknown>> {
  const log = opts.log ?? (() => {});
  const t0 = Date.now();
  const world = new World(opts.sessions);
  const findings: Findings = emptyFindings();
  const done: FaultDone[] = [];
  const warmDone: FaultDone[] = [];
  const restores: { session: string; file: string; at: number }[] = [];
  /** The daemon's footprint as the run goes (a sample every TRACK_EVERY faults): a leak climbs with the faults, a cache filling levels off. */
  const track: { faults: number; daemon: number; rssKiB: number; fds: number }[] = [];
  try {
    log(`soak: seed ${opts.seed}, ${opts.sessions} sessions in ${world.root}`);
    await world.init();
    if (opts.crashLoopCount !== undefined) world.settings({ restart: { crashLoopCount: opts.crashLoopCount } });
    const first = world.up();
    if (first.pid === null) throw new Error(`mori up --daemon failed: ${first.out}`);
    const warmedUp = (): boolean => world.names.every((_, i) => lineCount(world, i) >= WARM_LINES) && (world.real?.turns.length ?? WARM_LINES) >= WARM_LINES;
    await until('every session writing', warmedUp, () => '', WARM_BOUND_MS, POLL_MS);
    const before = unownedHashes(world);

    // Warm-up: the paths the faults take (a crash's relaunch on each backend, a wake's resume) run
    // once before the footprint's baseline, as they load their modules on first use; these faults
    // are not the schedule's and are not counted.
    const warmUp: Fault[] = [
      { i: -1, kind: 'kill-agent', session: 0, gapMs: 0, holdMs: 0 },
      { i: -1, kind: 'kill-agent', session: Math.min(1, opts.sessions - 1), gapMs: 0, holdMs: 0 },
      { i: -1, kind: 'sleep', session: 0, gapMs: 0, holdMs: WARM_SLEEP_MS },
    ];
    for (const f of warmUp) {
      const at = Date.now();
      const outcome = await inject(world, f);
      warmDone.push({ ...f, at, endAt: Date.now(), note: outcome.note });
    }
    await settle(world, warmDone[warmDone.length - 1]!.endAt);
    const warmPid = world.daemonPid();
    const warmAgeMs = warmPid === null ? null : processAgeMs(warmPid);
    const warm = warmPid === null ? null : await quietWindow(world, warmPid);
    log(`soak: warm after ${Math.round((Date.now() - t0) / 1000)} s: daemon ${warmPid} ${JSON.stringify(warm)}`);

    // No small disk (not root, or no tmpfs here): its fault is said to be skipped, and never drawn.
    const skipped: Record<string, string> = world.smallDisk ? { ...SKIPPED } : { ...SKIPPED, 'disk-full': world.smallDiskSkipped ?? 'no small disk' };
    if (world.realSkipped !== null) skipped['realClaude'] = world.realSkipped;
    const left: FaultKind[] = [...(world.smallDisk ? [] : (['disk-full'] as const)), ...FAULT_KINDS.filter((k) => opts.kinds !== undefined && !opts.kinds.includes(k))];
    const drawn = schedule(opts.seed, opts.faults ?? MINUTES_SCHEDULE, opts.sessions, left);
    const plan = world.real ? aimAtReal(drawn, opts.seed, opts.sessions) : drawn;
    const stopAt = opts.minutes !== undefined ? Date.now() + opts.minutes * 60_000 : Infinity;
    for (const f of plan) {
      if (Date.now() >= stopAt) break;
      await new Promise((r) => setTimeout(r, f.gapMs));
      const at = Date.now();
      const outcome = await inject(world, f);
      done.push({ ...f, at, endAt: Date.now(), note: outcome.note });
      // A full disk is the small disk's session's, whichever session the schedule drew.
      const hit = allNames(world)[f.kind === 'disk-full' ? world.smallDiskSession : f.session]!;
      findings[f.kind === 'disk-full' ? 'diskFull' : (outcome.invariant ?? 'corruptNamed')].push(...(outcome.problems ?? []).map((what) => ({ session: hit, what: `fault #${f.i}: ${what}` })));
      if (outcome.restored) restores.push({ session: hit, ...outcome.restored });
      // Two daemons for one home at any moment is a violation however briefly it lasts.
      const daemons = world.processes().daemons;
      if (daemons.length > 1) findings.orphans.push({ session: null, what: `after fault #${f.i}: ${daemons.length} daemons: ${daemons.map(describe).join('; ')}` });
      if (done.length % TRACK_EVERY === 0) {
        const pid = world.daemonPid();
        const now = pid === null ? null : footprint(pid);
        if (pid !== null && now !== null) track.push({ faults: done.length, daemon: pid, ...now });
        log(`soak: ${done.length} faults; daemon ${pid ?? 'down'} ${now === null ? '' : `RSS ${Math.round(now.rssKiB / 1024)} MB, ${now.fds} fds`}`);
      }
    }
    const lastFault = done[done.length - 1]?.endAt ?? Date.now();

    // A daemon is up at the end (a login item's), whatever the last fault left.
    if (world.daemonPid() === null) world.up();
    await limitsDue(world);
    const settled = await settle(world, lastFault);
    findings.stuck.push(...checkNotStuck(settled.states).map((what) => ({ session: null, what })));
    const lineTimes = new Map(world.names.map((name, i) => [name, agentRecords(world, i).filter((r) => r.event === 'line').map((r) => r.at)] as const));
    const ends = new Map(settled.states.map((s) => [s.name, { state: s.state, attention: s.attention }] as const));
    findings.goesOn.push(...checkGoesOn(restores, lineTimes, ends).map((what) => ({ session: null, what })));
    checkNetworkFaults(world, findings, done, SETTLE_BOUND_MS);
    if (done.some((f) => f.kind === 'disk-full')) findings.diskFull.push(...(await diskFullAtEnd(world)));
    const endPid = world.daemonPid();
    // Read at rest, as the warm-up's was: a daemon started among the last faults is still resuming.
    const end = endPid === null ? null : await restingWindow(world, endPid, warmAgeMs, cpuBound(warm?.cpu ?? null));
    findings.cpu.push(...checkCpu(warm?.cpu ?? null, end?.cpu ?? null, end?.spinning ?? []).map((what) => ({ session: null, what })));
    // What a night left in the daemon is measured against a daemon with the same sessions: the
    // warm-up's when it is the same process, else one started fresh now over the night's state (a
    // daemon started late in the run holds what any daemon over those sessions holds, not a leak).
    const restartAt = Date.now();
    const fresh = endPid !== null && endPid !== warmPid ? await freshDaemon(world) : null;
    findings.footprint.push(...checkFootprint(fresh?.quiet ?? warm, end).map((what) => ({ session: null, what })));
    const live = await lasting(world);
    const faultTimes = [...warmDone, ...done].map((f) => f.at).concat(fresh !== null ? [restartAt] : []);
    checkFiles(world, findings, faultTimes, before);
    const realEnd = world.real ? (ends.get(world.real.name)?.state ?? 'unknown') : null;
    if (world.real) {
      const found = world.real.check(faultTimes, live.agents.get(world.real.index)?.length ?? 0, realEnd!);
      for (const k of ['interruptions', 'typedTwice', 'stuck'] as const) findings[k].push(...found[k].map((what) => ({ session: world.real!.name, what })));
    }
    world.down();
    await until('the daemon gone', () => world.processes().daemons.length === 0, () => '', DOWN_BOUND_MS, POLL_MS).catch(() => {});
    const after = world.processes();
    findings.stateFiles.push(...checkStateFilesLeft(world));
    const directAgents = [...after.agents].filter(([i]) => i < world.sessions && i % 2 === 1).flatMap(([, p]) => p).length;
    if (live.tmux.length > 1) log(`soak: tmux processes at the end: ${live.tmux.map(describe).join('; ')}`);
    findings.orphans.push(
      ...checkOrphans(live, { agents: 0, daemons: after.daemons.length, privateGitDirs: world.privateGitDirs().length, directAgents }).map((what) => ({ session: null, what })),
    );
    const back = longestBack(world, done);
    const violations = Object.fromEntries(INVARIANTS.map((k) => [k, findings[k].length]));
    const pass = INVARIANTS.every((k) => findings[k].length === 0);
    if (!pass) printViolations(world, opts, findings, done);
    const faultKinds = Object.fromEntries(FAULT_KINDS.map((k: FaultKind) => [k, done.filter((f) => f.kind === k).length]));
    return {
      seed: opts.seed,
      faults: done.length,
      faultKinds,
      skipped,
      sessions: opts.sessions,
      realClaude: world.real ? world.real.figures(done, realEnd) : null,
      settings: { crashLoopCount: opts.crashLoopCount ?? 'built-in', ...(opts.kinds !== undefined ? { kinds: opts.kinds } : {}) },
      violations,
      pass,
      figures: {
        rssKiBBefore: warm?.rssKiB ?? null,
        rssKiBAfter: end?.rssKiB ?? null,
        rssKiBFresh: fresh?.quiet?.rssKiB ?? null,
        daemonFresh: fresh?.pid ?? null,
        fdsBefore: warm?.fds ?? null,
        fdsAfter: end?.fds ?? null,
        cpuBefore: warm?.cpu ?? null,
        cpuAfter: end?.cpu ?? null,
        // Where the daemon's CPU went at the end (its threads), and each end window's reading.
        cpuThreadsAfter: end?.threads ?? null,
        cpuWindowsAfter: end?.windows ?? null,
        daemonBefore: warmPid,
        daemonAfter: endPid,
        footprintTrack: track,
        longestBackMs: back.ms,
        longestBackSession: back.session,
        settledMs: settled.ms,
        endStates: tally(settled.states.map((s) => s.state.split(' ')[0]!)),
        linesWritten: world.names.reduce((n, _, i) => n + lineCount(world, i), 0),
        seconds: Math.round((Date.now() - t0) / 1000),
      },
    };
  } finally {
    world.cleanup(opts.keep === true);
  }
}

/** What runs now and still ran a moment before: a process being started or ending between two reads is left out. */
/** `mori down`, `mori up --daemon`, every session back, then the new daemon's footprint at rest. */
async function freshDaemon(world: World): Promise<{ pid: number | null; quiet: Quiet | null }> {
  world.down();
  await until('the daemon gone', () => world.processes().daemons.length === 0, () => '', DOWN_BOUND_MS, POLL_MS).catch(() => {});
  const up = world.up();
  if (up.pid === null) return { pid: null, quiet: null };
  await settle(world, Date.now());
  return { pid: up.pid, quiet: await quietWindow(world, up.pid) };
}

async function lasting(world: World): Promise<ReturnType<World['processes']>> {
  const a = world.processes();
  await new Promise((r) => setTimeout(r, LASTING_MS));
  const b = world.processes();
  const keep = (x: readonly number[], y: readonly number[]): number[] => x.filter((p) => y.includes(p));
  const agents = new Map([...b.agents].map(([i, pids]) => [i, keep(pids, a.agents.get(i) ?? [])] as const).filter(([, p]) => p.length > 0));
  return { agents, tmux: keep(b.tmux, a.tmux), daemons: keep(b.daemons, a.daemons) };
}

/** Waits (up to the bound) until every session is running and has written a line since the last fault, limited, or in attention. */
async function settle(world: World, lastFault: number): Promise<{ ms: number; states: LiveStateOf[] }> {
  const t = Date.now();
  let states: LiveStateOf[] = [];
  const read = (): boolean => {
    states = liveStates(world).map((s, i) => (s.state === 'running' && !workedSince(world, i, lastFault) ? { ...s, state: 'running but not writing' } : s));
    return checkNotStuck(states).length === 0;
  };
  await until('every session settled', read, () => '', SETTLE_BOUND_MS, POLL_MS).catch(() => {});
  return { ms: Date.now() - t, states };
}

interface LiveStateOf {
  name: string;
  state: string;
  attention: string | null;
}

function liveStates(world: World): LiveStateOf[] {
  const r = world.mori('ls', '--json');
  let listed: { session?: { name?: string; intent?: { kind?: string; reason?: string } }; live?: { name?: string; state?: string; attention?: { message?: string }; intent?: { kind?: string; reason?: string }; usageLimit?: { resumeAt: number } | null } }[] = [];
  try {
    listed = (JSON.parse(r.stdout) as { sessions: typeof listed }).sessions;
  } catch {
    // no daemon answers: every state unknown
  }
  return allNames(world).map((name) => {
    // A session whose session.json cannot be read is listed by its live state's name only.
    const entry = listed.find((s) => s.session?.name === name || s.live?.name === name);
    const live = entry?.live;
    const state = live?.state === undefined ? 'unknown (no live state)' : limitedState(live.state, live.usageLimit, Date.now());
    // A daemon that loaded the session in attention knows its reason from the intent alone.
    const intent = entry?.session?.intent ?? live?.intent;
    const kept = intent?.kind === 'attention' && intent.reason ? `${intent.reason} (the intent session.json keeps)` : null;
    return { name, state, attention: live?.attention?.message ?? kept };
  });
}

function tally(items: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of items) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** On any violation: the seed, the fault sequence and each session's work log named by a finding, on stderr. */
function printViolations(world: World, opts: SoakOptions, findings: Findings, done: readonly FaultDone[]): void {
  const w = (s: string): boolean => process.stderr.write(`${s}\n`);
  const more = `${opts.kinds !== undefined ? ` --kinds ${opts.kinds.join(',')}` : ''}${opts.crashLoopCount !== undefined ? ` --crash-loop-count ${opts.crashLoopCount}` : ''}`;
  w(`soak: VIOLATIONS with seed ${opts.seed} (replay: npm run soak -- --seed ${opts.seed} --faults ${done.length} --sessions ${world.sessions}${more})`);
  for (const k of INVARIANTS) for (const f of findings[k]) w(`  ${k}${f.session ? ` [${f.session}]` : ''}: ${f.what}`);
  w('soak: fault sequence:');
  for (const f of done) w(`  #${f.i} +${f.at - (done[0]?.at ?? 0)} ms ${f.kind} ${allNames(world)[f.session]} hold ${f.holdMs}: ${f.note}`);
  const named = new Set(INVARIANTS.flatMap((k) => findings[k].map((f) => f.session)).filter((s): s is string => s !== null));
  for (const name of named) w(`soak: work log of ${name}:\n${name === world.real?.name ? world.real.workLog() : fullWorkLog(world, world.names.indexOf(name))}`);
}
