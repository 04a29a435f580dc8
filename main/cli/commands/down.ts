// `mori down [--stop-agents]` (DESIGN.md §12): stops the running supervisor (daemon or foreground)
// and waits until its process is gone. tmux agents keep running and the next `mori up` re-attaches
// them; direct agents end with it. `--stop-agents` first stops every agent as the person would.
// Only the person stops it: refused from inside a supervised agent. Runs in the CLI process.
import type { Command } from 'commander';
import { moriHome } from '../../state/mori-home.js';
import { refusedInsideAgent } from '../approver-check.js';
import { stopDaemon } from '../../daemon-client/daemon-process.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

interface DownOptions extends OutputOptions {
  stopAgents?: boolean;
}

export function registerDown(program: Command): void {
  program
    .command('down')
    .description('stop the running supervisor; tmux agents keep running unless --stop-agents')
    .option('--stop-agents', 'stop every agent first (recorded as stopped by you)')
    .option('--json', 'print JSON')
    .action(async (opts: DownOptions) => {
      const home = moriHome();
      // The daemon refuses it too; asked here as well where it cannot tell who asks (macOS).
      const refused = await refusedInsideAgent(home, '`mori down` (stopping the Mori supervisor)');
      if (refused) return reportFailure(refused, opts);
      const r = await stopDaemon(home, opts.stopAgents ?? false);
      if (!r.ok) return reportFailure(r, opts);
      const text = r.value.wasRunning ? `Stopped the Mori supervisor (pid ${r.value.pid}).` : `No Mori supervisor is running for ${home}.`;
      reportSuccess({ ok: true, stopped: r.value.wasRunning, pid: r.value.wasRunning ? r.value.pid : null }, text, opts);
    });
}
