// `mori ui [--port N] [--host A --allow-insecure-network] [--tls-cert F --tls-key F] [--no-open] [--json]`
// (DESIGN.md §11, §12, §13): runs the web host in the foreground, starting the daemon when none
// answers, and prints its link (the launch token in its fragment) as the first line of stdout. The
// browser is opened on a 0600 redirect file (launch-page.ts), never on the link: no token in any argv.
// Binds 127.0.0.1; any other address only with --allow-insecure-network, and then warns. With a
// certificate and its key (both or neither, checked before anything starts) it serves HTTPS, so a
// phone on a LAN or tailnet reaches it without the page's traffic in the clear. Runs as its own process.
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { fail } from '../../../common/result.js';
import { moriHome } from '../../state/mori-home.js';
import { writeLaunchPage, type LaunchPage } from '../../web/launch-page.js';
import { isLoopback } from '../../web/web-auth.js';
import { startWebHost } from '../../web/web-host.js';
import { readTlsFiles, type TlsFiles } from '../../web/tls-files.js';
import { connectRemoteUpstream, remoteNames } from '../../remote/remote-upstream.js';
import { startDaemon } from '../../daemon-client/daemon-process.js';
import { reportFailure, type OutputOptions } from '../output.js';
import { WINDOW_REQUEST_TIMEOUT_ENV } from '../../../common/web-session.js';

/** The page's request time limit from WINDOW_REQUEST_TIMEOUT_ENV, when it holds a whole number of ms in range. */
function requestTimeout(): { requestTimeoutMs?: number } {
  const ms = Number(process.env[WINDOW_REQUEST_TIMEOUT_ENV] ?? NaN);
  return Number.isInteger(ms) && ms >= 100 && ms <= 600_000 ? { requestTimeoutMs: ms } : {};
}

interface UiOptions extends OutputOptions {
  port?: string;
  host: string;
  open: boolean;
  allowInsecureNetwork?: boolean;
  tlsCert?: string;
  tlsKey?: string;
}

/** The desktop's way to open a file; failing to is not an error (a headless machine over SSH). */
function openBrowser(file: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [file], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // nothing to open it with
  }
}

export function registerUi(program: Command): void {
  program
    .command('ui')
    .description('serve the Mori window to a browser (starts the supervisor when none runs)')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--allow-insecure-network', 'allow --host other than loopback (anyone on the network who gets the link controls your agents; plain HTTP unless --tls-cert)')
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (with --tls-key)')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option('--no-open', 'do not open a browser')
    .option('--json', 'print {"url": …} as the first line')
    .action(async (opts: UiOptions) => {
      const port = opts.port === undefined ? 0 : Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) return reportFailure(fail('usage', `--port: "${opts.port}" is not a port number`), opts);
      if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) return reportFailure(fail('usage', '--tls-cert and --tls-key go together: give both, or neither for plain HTTP'), opts);
      let tls: TlsFiles | undefined;
      if (opts.tlsCert !== undefined && opts.tlsKey !== undefined) {
        const read = readTlsFiles(opts.tlsCert, opts.tlsKey);
        if (!read.ok) return reportFailure(read, opts);
        tls = read.value;
      }
      if (!isLoopback(opts.host) && !opts.allowInsecureNetwork) {
        const how = tls ? 'over HTTPS (anyone on the network who gets the link controls your agents)' : "over plain HTTP (anyone on the network can read the link and the page's traffic)";
        return reportFailure(fail('usage', `--host ${opts.host} is reachable from other machines ${how}; pass --allow-insecure-network to accept that, or forward the port over SSH instead`), opts);
      }
      const home = moriHome();
      const daemon = await startDaemon(home);
      if (!daemon.ok) return reportFailure(daemon, opts);
      let launch: LaunchPage | null = null;
      let host;
      try {
        host = await startWebHost({ home, host: opts.host, port, onTokenSpent: () => launch?.remove(), connectRemote: (name) => connectRemoteUpstream(home, name), listRemotes: () => remoteNames(home), ...requestTimeout(), ...(tls ? { tls } : {}) });
      } catch (err) {
        return reportFailure(fail('failed', `cannot listen on ${opts.host}:${port}: ${(err as Error).message}`), opts);
      }
      process.stdout.write((opts.json ? JSON.stringify({ url: host.url }) : host.url) + '\n');
      if (daemon.value.started) process.stderr.write(`mori: no Mori supervisor was running; started a daemon (pid ${daemon.value.pid}, logs in ${daemon.value.logs})\n`);
      if (!isLoopback(opts.host)) process.stderr.write(`mori: warning: listening on ${opts.host}, reachable from other machines; anyone with the link controls your agents\n`);
      if (opts.open) {
        launch = writeLaunchPage(home, host.url);
        openBrowser(launch.file);
      }
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      launch?.remove();
      await host.close();
      process.exit(0);
    });
}
