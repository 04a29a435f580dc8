// `mori up [S...] [--json] [--daemon]` (DESIGN.md §9, §12): runs the daemon (main/daemon/daemon-host.ts)
// for the sessions named, or every registered one meant to run, with the control socket open for every
// client. In the foreground `--json` prints every event as one JSON line; `--daemon` starts it detached
// (main/daemon-client/daemon-process.ts) and returns once it answers, logging to `$MORI_HOME/logs/`.
// A second one while one answers says so and exits 1. Runs as its own process.
import type { Command } from 'commander';
import type { SupervisorEvent } from '../../../common/events.js';
import { fail } from '../../../common/result.js';
import { homeUnsafeReason } from '../../daemon/control-server.js';
import { runDaemonHost } from '../../daemon/daemon-host.js';
import { DAEMON_CHILD_ENV, daemonAnswering, startDaemon } from '../../daemon-client/daemon-process.js';
import { moriHome } from '../../state/mori-home.js';
import { ensureHome } from '../../state/registry.js';
import { describeEvent } from '../event-words.js';
import { refusedInsideAgent } from '../approver-check.js';
import { reportFailure, type OutputOptions } from '../output.js';

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
      // Naming sessions starts them: the person's, never an agent's. The daemon's own process (started
      // detached by a client that checked) and a plain `mori up` (what the person left running) are not asked.
      if (refs.length > 0 && process.env[DAEMON_CHILD_ENV] !== '1') {
        const refused = await refusedInsideAgent(home, `\`mori up ${refs.join(' ')}\` (starting sessions launches their agents)`);
        if (refused) return reportFailure(refused, opts);
      }
      if (opts.daemon) return upDaemon(home, refs, opts);
      const running = await daemonAnswering(home);
      if (running) return reportFailure(fail('failed', `another Mori supervisor is running (pid ${running.pid}); \`mori down\` stops it`), opts);
      // Detached (`--daemon`), events go to the daemon's log files, not to a terminal.
      const asDaemon = process.env[DAEMON_CHILD_ENV] === '1';
      const print = (e: SupervisorEvent): void => {
        process.stdout.write((opts.json ? JSON.stringify(e) : describeEvent(e)) + '\n');
      };
      await runDaemonHost({ home, refs, events: asDaemon ? 'log-file' : print, onFailure: (f) => reportFailure(f, opts) });
    });
}
