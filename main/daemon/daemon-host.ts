// The process that hosts the daemon (DESIGN.md §12): assembles the Supervisor for the sessions named
// (or every registered one meant to run), its sleep/wake and network watch, the interruption
// orchestrator and the control socket, and runs them until SIGINT/SIGTERM or `daemon.stop`: then
// checkpoint, log, leave tmux sessions running, end direct ones, exit 0. `mori up` (main/cli) parses
// the options and calls it. Runs as its own process.
// MORI_RESTART_BASE_MS, MORI_START_STAGGER_MS, MORI_PROBE_INTERVAL_MS and MORI_LIMIT_JITTER_MS shorten the first restart
// delay, the gap between launches, the network probe interval and the jitter after a usage limit, and
// MORI_LIMIT_JITTER_SLOT (first|last) places a limit's resume at that end of its jitter instead of at
// random (tests; a person has no reason to).
import path from 'node:path';
import { DaemonSettings } from '../../common/daemon-settings.js';
import type { RuntimeState, SupervisorEvent } from '../../common/events.js';
import { fail, type Failure } from '../../common/result.js';
import type { ProfileName } from '../../common/session.js';
import { background } from '../background.js';
import { createPowerWatch, type PowerWatch } from '../power/power-watch.js';
import { parseProbeTargets } from '../power/probe-targets.js';
import { readSessionFile } from '../state/session-file.js';
import { sweepPrivateGitDirs } from '../git/private-git-sweep.js';
import { Supervisor, type SupervisorOptions } from '../supervisor/supervisor.js';
import { startControlServer, type ControlServer } from './control-server.js';
import { UsageBook } from './usage-book.js';
import { ContextWatch } from './context-watch.js';
import { warnShare } from './api/usage.js';
import { DAEMON_LOG, logDir, RotatingLog } from './daemon-log.js';
import { readSettings } from './daemon-settings.js';
import { RegistryWatch } from './registry-watch.js';
import { InterruptionOrchestrator } from './interruption-orchestrator.js';
import { KeepAwakeHost } from './keep-awake-host.js';
import { NoticeHost } from './notice-host.js';
import { inhibitorCommand, SleepInhibitor } from '../power/sleep-inhibitor.js';
import { beginShutdown, shutdownRequested } from './shutdown-deadline.js';

function envMs(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function jitterSlot(v: string | undefined): 'first' | 'last' | undefined {
  return v === 'first' || v === 'last' ? v : undefined;
}

/**
 * Sleep/wake and network watch for the supervised sessions: probes the API hosts of the agents that
 * run (MORI_PROBE overrides), kept current as sessions start.
 */
function watchPower(supervisor: Supervisor): PowerWatch {
  const profiles = (): ProfileName[] =>
    supervisor.list().flatMap((s) => {
      const f = readSessionFile(s.stateDir);
      return f.ok ? [f.value.agent.profile] : [];
    });
  const every = envMs('MORI_PROBE_INTERVAL_MS');
  const power = createPowerWatch({
    profiles: profiles(),
    ...(every !== undefined ? { network: { onlineIntervalMs: every, offlineIntervalMs: every } } : {}),
  });
  supervisor.on((e) => {
    if (e.type === 'session.started') power.setProfiles(profiles());
  });
  return power;
}

/** The restart limits of settings.json; MORI_RESTART_BASE_MS (tests) wins over them. */
function restartPolicy(settings: DaemonSettings | null): SupervisorOptions['policy'] {
  const r = settings?.restart;
  const base = envMs('MORI_RESTART_BASE_MS') ?? r?.baseDelayMs ?? undefined;
  return {
    ...(base != null ? { baseDelayMs: base } : {}),
    ...(r?.maxDelayMs != null ? { maxDelayMs: r.maxDelayMs } : {}),
    ...(r?.crashLoopCount != null ? { crashLoopCount: r.crashLoopCount } : {}),
  };
}

/** Probe targets from settings.json, when it names any. */
function applyProbeTargets(power: PowerWatch, settings: DaemonSettings): void {
  if (settings.probeTargets === null) return;
  const parsed = parseProbeTargets(settings.probeTargets.join(','));
  if (parsed.ok) power.setTargets(parsed.value);
}

/** States in which a session has an agent or is about to (re)start one: what `mori down --stop-agents` stops. */
const AGENT_STATES = new Set<RuntimeState>(['starting', 'running', 'interrupted', 'backoff', 'limited', 'verifying', 'resuming']);

/** How long `--stop-agents` waits for the stopped agents' exits to be read and recorded. */
const STOP_AGENTS_WAIT_MS = 3_000;

/** Stops every agent as the person would, and waits until each stop is recorded (or the wait ends). */
async function stopEveryAgent(supervisor: Supervisor): Promise<void> {
  const ids = supervisor.list().filter((s) => AGENT_STATES.has(s.state)).map((s) => s.id);
  await Promise.all(ids.map((id) => supervisor.stopSession(id)));
  const deadline = Date.now() + STOP_AGENTS_WAIT_MS;
  while (Date.now() < deadline && supervisor.list().some((s) => ids.includes(s.id) && s.state !== 'stopped')) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface DaemonHostOptions {
  /** The Mori home, already made and found private (control-server.ts homeUnsafeReason). */
  home: string;
  /** Sessions to start by id or name; empty: every registered one meant to run. */
  refs: readonly string[];
  /** Where every event goes: the daemon's rotating log under `$MORI_HOME/logs/` (detached), or a printer (foreground). */
  events: 'log-file' | ((e: SupervisorEvent) => void);
  /** Tells the person why the daemon could not start or stopped badly (the command's own output format). */
  onFailure: (f: Failure) => void;
}

/**
 * Runs the daemon in this process until it is stopped, then exits the process. A failure to start
 * (the sessions, the control socket) is handed to onFailure and returns, everything started undone.
 */
export async function runDaemonHost(o: DaemonHostOptions): Promise<void> {
  const { home } = o;
  // Listens before anything starts: a signal while a session is being verified at start-up must
  // cancel its checks too, not kill the process and leave them running (shutdown-deadline.ts).
  const stopRequested = shutdownRequested();
  const settings = readSettings(home);
  if (!settings.ok) process.stderr.write(`mori: ${settings.message}; using the defaults\n`);
  const stagger = envMs('MORI_START_STAGGER_MS');
  // Benchmarks shorten the periodic checkpoints' interval so a measuring window holds several.
  const checkpointEvery = envMs('MORI_CHECKPOINT_INTERVAL_MS');
  // Tests shorten the jitter after a usage limit's reset (limit-plan.ts) so they wait seconds, not a minute.
  const limitJitter = envMs('MORI_LIMIT_JITTER_MS');
  // Tests also place the resume before or after an agent's own continuation (limit-plan.ts).
  const limitSlot = jitterSlot(process.env['MORI_LIMIT_JITTER_SLOT']);
  const usage = new UsageBook(process.env);
  const options: SupervisorOptions = {
    home,
    policy: restartPolicy(settings.ok ? settings.value : null),
    // `auto` weighs the conversation's size from the same usage readers `mori usage` shows.
    resumePolicy: { ...(settings.ok ? { defaults: settings.value.resume } : {}), contextUsage: usage.contextSource },
    ...(settings.ok ? { onUsageLimit: settings.value.onUsageLimit, sandbox: settings.value.sandbox } : {}),
    ...(stagger !== undefined ? { startStaggerMs: stagger } : {}),
    ...(checkpointEvery !== undefined ? { checkpointIntervalMs: checkpointEvery } : {}),
    // Tests only: activity from the agents' hooks alone, the screen not read (proves the hooks by themselves).
    ...(process.env['MORI_TEST_HOOKS_ONLY'] === '1' ? { activity: { hooksOnly: true } } : {}),
    ...(limitJitter !== undefined || limitSlot !== undefined ? { usageLimit: { ...(limitJitter !== undefined ? { jitterMs: limitJitter } : {}), ...(limitSlot !== undefined ? { jitterSlot: limitSlot } : {}) } } : {}),
  };
  const supervisor = new Supervisor(options);
  if (o.events === 'log-file') {
    const log = new RotatingLog(path.join(logDir(home), DAEMON_LOG));
    supervisor.on((e) => log.write(JSON.stringify(e)));
  } else supervisor.on(o.events);
  const started = await supervisor.start([...o.refs]);
  if (!started.ok) return o.onFailure(started);
  for (const s of started.value.skipped) process.stderr.write(`mori: skipped ${s.stateDir}: ${s.message}\n`);
  const power = watchPower(supervisor);
  if (settings.ok) applyProbeTargets(power, settings.value);
  const orchestrator = new InterruptionOrchestrator(supervisor, power);
  const say = (message: string): void => void process.stderr.write(`mori: ${message}\n`);
  const awake = new KeepAwakeHost(
    {
      list: () => supervisor.list(),
      inhibitor: new SleepInhibitor(() => inhibitorCommand(process.platform, process.pid, 'coding agents are working'), say),
      now: () => Date.now(),
      log: say,
      publish: (holding, working) => supervisor.publish({ type: 'keep-awake', at: Date.now(), holding, working }),
    },
    (settings.ok ? settings.value : DaemonSettings.parse({})).keepAwake,
  );
  // Its own event is no news to it.
  supervisor.on((e) => {
    if (e.type !== 'keep-awake') awake.update();
  });
  const retryBase = envMs('MORI_NOTIFY_RETRY_BASE_MS');
  const notices = new NoticeHost(
    {
      list: () => supervisor.list(),
      log: say,
      // Tests wait out a down target's retries in seconds, not minutes.
      ...(retryBase !== undefined ? { retry: { tries: 5, baseMs: retryBase } } : {}),
    },
    settings.ok ? settings.value : DaemonSettings.parse({}),
  );
  supervisor.on((e) => notices.event(e));
  // A turn that ended may have taken the conversation past the context share set: said once.
  const contextWatch = new ContextWatch({
    record: (id) => {
      const live = supervisor.list().find((x) => x.id === id);
      const r = live ? readSessionFile(live.stateDir) : null;
      return r?.ok ? r.value : null;
    },
    read: (session) => usage.read(session),
    warn: () => warnShare(home),
    publish: (e) => supervisor.publish(e),
    now: () => Date.now(),
  });
  supervisor.on((e) => contextWatch.heard(e));
  let server: ControlServer | null = null;
  let registry: RegistryWatch | null = null;
  let stop: (stopAgents: boolean, bySignal?: boolean) => void = () => undefined;
  const stopped = new Promise<void>((resolve, reject) => {
    let stopping = false;
    stop = (stopAgents: boolean, bySignal = false): void => {
      if (stopping) return;
      stopping = true;
      // A signal began the shutdown already (checks cancelled, deadline armed); `mori down` begins it here.
      if (!bySignal) beginShutdown();
      (async () => {
        orchestrator.dispose();
        power.dispose();
        awake.dispose();
        notices.dispose();
        await registry?.close();
        if (stopAgents) await stopEveryAgent(supervisor);
        await server?.close();
        await supervisor.shutdown();
      })().then(resolve, reject);
    };
  });
  const onSettings = (s: DaemonSettings): void => {
    applyProbeTargets(power, s);
    awake.setSettings(s.keepAwake);
    notices.setSettings(s);
  };
  const serverStarted = await startControlServer(supervisor, home, { power, stop, onSettings, usage, awake: () => awake.status(), notifyTest: () => notices.test() });
  if (!serverStarted.ok) {
    awake.dispose();
    notices.dispose();
    orchestrator.dispose();
    power.dispose();
    await supervisor.shutdown();
    return o.onFailure(serverStarted);
  }
  server = serverStarted.value;
  // Sessions `mori init` registers from now on are listed at once (not started).
  registry = new RegistryWatch(supervisor, home, (dir, message) => process.stderr.write(`mori: not loaded: ${dir}: ${message}\n`));
  await registry.ready();
  // Private git dirs left by a supervisor or command killed while git ran.
  background(sweepPrivateGitDirs(), 'removing abandoned private git dirs');
  background(stopRequested.then(() => stop(false, true)), 'stopping the supervisor');
  await stopped.catch((err: unknown) => o.onFailure(fail('failed', String(err))));
  // Nothing of the supervisor is left to wait for; do not linger on stray handles.
  process.stdout.write('', () => process.exit(process.exitCode ?? 0));
}
