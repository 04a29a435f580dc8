// `mori up [S...] [--json]` (DESIGN.md §9): runs the Supervisor headless in the foreground for the
// sessions named, or every registered one meant to run, with the control socket open for
// `mori start|stop|send|attach`. `--json` prints every event as one JSON line. SIGINT/SIGTERM:
// checkpoint, log, leave tmux sessions running, end direct ones, exit 0. Runs as its own process.
// MORI_RESTART_BASE_MS, MORI_START_STAGGER_MS and MORI_PROBE_INTERVAL_MS shorten the first restart
// delay, the gap between launches and the network probe interval (tests; a person has no reason to).
import type { Command } from 'commander';
import type { SupervisorEvent } from '../../../common/events.js';
import { fail } from '../../../common/result.js';
import { moriHome } from '../../state/mori-home.js';
import { ensureHome } from '../../state/registry.js';
import { homeUnsafeReason, startControlServer } from '../../supervisor/control-server.js';
import { Supervisor, type SupervisorOptions } from '../../supervisor/supervisor.js';
import { reportFailure, type OutputOptions } from '../output.js';
import type { ProfileName } from '../../../common/session.js';
import { createPowerWatch, type PowerWatch } from '../../power/power-watch.js';
import { readSessionFile } from '../../state/session-file.js';
import { InterruptionOrchestrator } from '../../supervisor/interruption-orchestrator.js';

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

export function registerUp(program: Command): void {
  program
    .command('up [sessions...]')
    .description('run the supervisor in the foreground: start the sessions named, or every registered one meant to run')
    .option('--json', 'print every event as one JSON line')
    .action(async (refs: string[], opts: OutputOptions) => {
      const home = ensureHome(moriHome());
      // Refuse before any agent starts: the socket would be reachable by others (DESIGN.md §11).
      const unsafe = homeUnsafeReason(home);
      if (unsafe) return reportFailure(fail('failed', `refusing to start: ${unsafe}`), opts);
      const base = envMs('MORI_RESTART_BASE_MS');
      const stagger = envMs('MORI_START_STAGGER_MS');
      const options: SupervisorOptions = {
        home,
        ...(base !== undefined ? { policy: { baseDelayMs: base } } : {}),
        ...(stagger !== undefined ? { startStaggerMs: stagger } : {}),
      };
      const supervisor = new Supervisor(options);
      supervisor.on((e) => process.stdout.write((opts.json ? JSON.stringify(e) : describeEvent(e)) + '\n'));
      const started = await supervisor.start(refs);
      if (!started.ok) return reportFailure(started, opts);
      for (const s of started.value.skipped) process.stderr.write(`mori: skipped ${s.stateDir}: ${s.message}\n`);
      const server = await startControlServer(supervisor, home);
      if (!server.ok) {
        await supervisor.shutdown();
        return reportFailure(server, opts);
      }
      const power = watchPower(supervisor);
      const orchestrator = new InterruptionOrchestrator(supervisor, power);
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (): void => {
          if (stopping) return;
          stopping = true;
          (async () => {
            orchestrator.dispose();
            power.dispose();
            await server.value.close();
            await supervisor.shutdown();
          })().then(resolve, (err: unknown) => {
            process.stderr.write(`mori: stopping the supervisor failed: ${String(err)}\n`);
            process.exitCode = 1;
            resolve();
          });
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }).catch((err: unknown) => reportFailure(fail('failed', String(err)), opts));
      // Nothing of the supervisor is left to wait for; do not linger on stray handles.
      process.stdout.write('', () => process.exit(process.exitCode ?? 0));
    });
}
