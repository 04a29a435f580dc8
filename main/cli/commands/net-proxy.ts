// `mori net-proxy --dir D --socket S [--allow HOST]...`: a sandboxed session's network proxy, run
// detached by main/sandbox/net-proxy-process.ts (DESIGN.md §11 "Sandbox"); hidden from help, never
// typed by a person. Runs as its own long-lived process until SIGTERM or its socket is removed.
import { Command, Option } from 'commander';
import { runNetProxy } from '../../sandbox/net-proxy-main.js';

export function registerNetProxy(program: Command): void {
  program
    .addCommand(
      new Command('net-proxy')
        .description("a sandboxed session's network proxy (started by the daemon)")
        .requiredOption('--dir <dir>', "the proxy's dir: its state and log")
        .requiredOption('--socket <path>', 'the unix socket it listens on')
        .addOption(new Option('--allow <host>', 'an allowed host pattern (repeatable)').default([]).argParser((v: string, prev: string[]) => [...prev, v]))
        .action(async (opts: { dir: string; socket: string; allow: string[] }) => {
          try {
            await runNetProxy({ dir: opts.dir, socket: opts.socket, allowedHosts: opts.allow });
          } catch (err) {
            process.stderr.write(`mori net-proxy: ${(err as Error).message}\n`);
            process.exit(1);
          }
        }),
      { hidden: true },
    );
}
