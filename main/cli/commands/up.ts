// `mori up [S...] [--json] [--daemon]` (DESIGN.md §9, §12): runs the Supervisor headless for the
// sessions named, or every registered one meant to run, with the control socket open for every client.
// In the foreground `--json` prints every event as one JSON line; `--daemon` starts it detached
// (main/daemon-client/daemon-process.ts) and returns once it answers, logging to `$MORI_HOME/logs/`. SIGINT/SIGTERM or
// `mori down`: checkpoint, log, leave tmux sessions running, end direct ones, exit 0. A second one
// while one answers says so and exits 1. Runs as its own process.
// MORI_RESTART_BASE_MS, MORI_START_STAGGER_MS and MORI_PROBE_INTERVAL_MS shorten the first restart
// delay, the gap between launches and the network probe interval (tests; a person has no reason to).
import type { Command } from 'commander';
import type { RuntimeState, SupervisorEvent } from '../../../common/events.js';
import { fail } from '../../../common/result.js';
import { moriHome } from '../../state/mori-home.js';
import { ensureHome } from '../../state/registry.js';
import { homeUnsafeReason, startControlServer, type ControlServer } from '../../daemon/control-server.js';
import { Supervisor, type SupervisorOptions } from '../../supervisor/supervisor.js';
import { reportFailure, type OutputOptions } from '../output.js';
import { beginShutdown, shutdownRequested } from '../../daemon/shutdown-deadline.js';
import { background } from '../../background.js';
import type { ProfileName } from '../../../common/session.js';
import { createPowerWatch, type PowerWatch } from '../../power/power-watch.js';
import { readSessionFile } from '../../state/session-file.js';
import { InterruptionOrchestrator } from '../../daemon/interruption-orchestrator.js';
import { readSettings } from '../../daemon/daemon-settings.js';
import { parseProbeTargets } from '../../power/probe-targets.js';
import type { DaemonSettings } from '../../../common/daemon-settings.js';
import { DAEMON_CHILD_ENV, daemonAnswering, startDaemon } from '../../daemon-client/daemon-process.js';
import { DAEMON_LOG, logDir, RotatingLog } from '../../daemon/daemon-log.js';
import path from 'node:path';

function envMs(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** One line per event for a person watching `mori up`. */
export function describeEvent(e: SupervisorEvent): string {
  const time = new Date(e.at).toTimeString().slice(0, 8);
  const who = 'name' in e ? `${e.name}: ` : '';
  switch (e.type) {
    case 'supervisor.ready':
      return `${time} supervisor ready (${e.sessions} session${e.sessions === 1 ? '' : 's'}, pid ${e.pid})`;
    case 'session.started':
      return `${time} ${who}started (${e.launch}, ${e.backend}, pid ${e.pid})`;
    case 'session.activity':
      return `${time} ${who}${e.to}`;
    case 'session.exited':
      return `${time} ${who}exited (${e.signal ?? `code ${e.code}`}): ${e.outcome}`;
    case 'session.interrupted':
      return `${time} ${who}interrupted (${e.reason})${e.retryInMs !== null ? `, retrying in ${(e.retryInMs / 1000).toFixed(1)}s` : ''}`;
    case 'session.resuming':
    case 'session.resumed':
      return `${time} ${who}${e.type === 'session.resuming' ? 'resuming' : 'resumed'} (${e.launch})`;
    case 'session.attention':
      return `${time} ${who}NEEDS ATTENTION (${e.reason}): ${e.message}`;
    case 'session.stopped':
      return `${time} ${who}stopped by the ${e.by}`;
    case 'verify.started':
      return `${time} ${who}verifying`;
    case 'verify.finished':
      return `${time} ${who}${e.summary}`;
    case 'checkpoint.written':
      return `${time} ${who}checkpoint${e.changed ? ` (${e.changedFiles} changed files)` : ', unchanged'}`;
    default:
      return `${time} ${e.type}`;
  }
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
const AGENT_STATES = new Set<RuntimeState>(['starting', 'running', 'interrupted', 'backoff', 'verifying', 'resuming']);

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

interface UpOptions extends OutputOptions {
  daemon?: boolean;
}

/** `mori up --daemon`: starts the daemon detached, prints its pid once it answers. */
async function upDaemon(home: string, refs: string[], opts: UpOptions): Promise<void> {
  const running = await daemonAnswering(home);
  if (running) return reportFailure(fail('failed', `another Mori supervisor is running (pid ${running.pid}); \`mori down\` stops it`), opts);
  const started = await startDaemon(home, refs);
  if (!started.ok) return reportFailure(started, opts);
  const { pid, logs } = started.value;
  if (!started.value.started) return reportFailure(fail('failed', `another Mori supervisor is running (pid ${pid}); \`mori down\` stops it`), opts);
  if (opts.json) process.stdout.write(JSON.stringify({ ok: true, pid, logs }) + '\n');
  else process.stdout.write(`Mori daemon running (pid ${pid}); logs in ${logs}\n`);
}

export function registerUp(program: Command): void {
  program
    .command('up [sessions...]')
    .description('run the supervisor: start the sessions named, or every registered one meant to run')
    .option('--json', 'print every event as one JSON line')
    .option('--daemon', 'run it in the background; return once it answers on its socket')
    .action(async (refs: string[], opts: UpOptions) => {
      const home = ensureHome(moriHome());
      // Refuse before any agent starts: the socket would be reachable by others (DESIGN.md §11).
      const unsafe = homeUnsafeReason(home);
      if (unsafe) return reportFailure(fail('failed', `refusing to start: ${unsafe}`), opts);
      if (opts.daemon) return upDaemon(home, refs, opts);
      const running = await daemonAnswering(home);
      if (running) return reportFailure(fail('failed', `another Mori supervisor is running (pid ${running.pid}); \`mori down\` stops it`), opts);
      // Listens before anything starts: a signal while a session is being verified at start-up must
      // cancel its checks too, not kill the process and leave them running (shutdown-deadline.ts).
      const stopRequested = shutdownRequested();
      const settings = readSettings(home);
      const asDaemon = process.env[DAEMON_CHILD_ENV] === '1';
      if (!settings.ok) process.stderr.write(`mori: ${settings.message}; using the defaults\n`);
      const stagger = envMs('MORI_START_STAGGER_MS');
      const options: SupervisorOptions = {
        home,
        policy: restartPolicy(settings.ok ? settings.value : null),
        ...(stagger !== undefined ? { startStaggerMs: stagger } : {}),
      };
      const supervisor = new Supervisor(options);
      if (asDaemon) {
        const log = new RotatingLog(path.join(logDir(home), DAEMON_LOG));
        supervisor.on((e) => log.write(JSON.stringify(e)));
      } else supervisor.on((e) => process.stdout.write((opts.json ? JSON.stringify(e) : describeEvent(e)) + '\n'));
      const started = await supervisor.start(refs);
      if (!started.ok) return reportFailure(started, opts);
      for (const s of started.value.skipped) process.stderr.write(`mori: skipped ${s.stateDir}: ${s.message}\n`);
      const power = watchPower(supervisor);
      if (settings.ok) applyProbeTargets(power, settings.value);
      const orchestrator = new InterruptionOrchestrator(supervisor, power);
      let server: ControlServer | null = null;
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
            if (stopAgents) await stopEveryAgent(supervisor);
            await server?.close();
            await supervisor.shutdown();
          })().then(resolve, reject);
        };
      });
      const serverStarted = await startControlServer(supervisor, home, { power, stop, onSettings: (s) => applyProbeTargets(power, s) });
      if (!serverStarted.ok) {
        orchestrator.dispose();
        power.dispose();
        await supervisor.shutdown();
        return reportFailure(serverStarted, opts);
      }
      server = serverStarted.value;
      background(stopRequested.then(() => stop(false, true)), 'stopping the supervisor');
      await stopped.catch((err: unknown) => reportFailure(fail('failed', String(err)), opts));
      // Nothing of the supervisor is left to wait for; do not linger on stray handles.
      process.stdout.write('', () => process.exit(process.exitCode ?? 0));
    });
}
