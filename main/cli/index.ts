// The `mori` command (DESIGN.md §9): a thin commander shell over main/. Every command takes --json,
// never waits for input when stdin is not a terminal, and exits 0 ok, 1 failed, 2 usage, 3 not found
// or unreadable. Runs as its own Node process.
import { Command, CommanderError } from 'commander';

type Registrar = (program: Command) => void;

/**
 * Each command's module, loaded only when that command runs: `mori ls` must not pay for loading the
 * supervisor, the terminals and xterm (DESIGN.md §10: a cold `mori ls` of 50 sessions within 1 s).
 */
const COMMAND_MODULES: Record<string, () => Promise<Registrar>> = {
  init: async () => (await import('./commands/init.js')).registerInit,
  ls: async () => (await import('./commands/ls.js')).registerLs,
  status: async () => (await import('./commands/status.js')).registerStatus,
  log: async () => (await import('./commands/log.js')).registerLog,
  set: async () => (await import('./commands/set.js')).registerSet,
  prompt: async () => (await import('./commands/prompt.js')).registerPrompt,
  checks: async () => (await import('./commands/checks.js')).registerChecks,
  verify: async () => (await import('./commands/checks.js')).registerChecks,
  trust: async () => (await import('./commands/checks.js')).registerChecks,
  up: async () => (await import('./commands/up.js')).registerUp,
  down: async () => (await import('./commands/down.js')).registerDown,
  ui: async () => (await import('./commands/ui.js')).registerUi,
  start: async () => (await import('./commands/control.js')).registerControl,
  stop: async () => (await import('./commands/control.js')).registerControl,
  'resume-now': async () => (await import('./commands/control.js')).registerControl,
  'dont-resume': async () => (await import('./commands/control.js')).registerControl,
  send: async () => (await import('./commands/control.js')).registerControl,
  handoff: async () => (await import('./commands/control.js')).registerControl,
  attach: async () => (await import('./commands/attach.js')).registerAttach,
  remote: async () => (await import('./commands/remote.js')).registerRemote,
  bridge: async () => (await import('./commands/remote.js')).registerRemote,
  rename: async () => (await import('./commands/remove.js')).registerRemove,
  rm: async () => (await import('./commands/remove.js')).registerRemove,
  checkpoint: async () => (await import('./commands/checkpoints.js')).registerCheckpoints,
  checkpoints: async () => (await import('./commands/checkpoints.js')).registerCheckpoints,
  changes: async () => (await import('./commands/checkpoints.js')).registerCheckpoints,
  rollback: async () => (await import('./commands/checkpoints.js')).registerCheckpoints,
  usage: async () => (await import('./commands/usage.js')).registerUsage,
  notify: async () => (await import('./commands/notify.js')).registerNotify,
  report: async () => (await import('./commands/report.js')).registerReport,
  // Hidden: a sandboxed session's network proxy, run detached by the daemon.
  'net-proxy': async () => (await import('./commands/net-proxy.js')).registerNetProxy,
};

/** The program with the named command registered, or every command (help, errors) when it is unknown. */
export async function buildProgram(commandName?: string): Promise<Command> {
  const program = new Command('mori')
    .description('Keeps coding agents working through crashes, sleep, network drops and reboots.')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  const only = commandName !== undefined ? COMMAND_MODULES[commandName] : undefined;
  // `mori --version` needs no command; anything else unknown (help, a typo) lists them all.
  const loaders = only ? [only] : commandName === '--version' || commandName === '-V' ? [] : Object.values(COMMAND_MODULES);
  const registrars = new Set(await Promise.all(loaders.map((load) => load())));
  for (const register of registrars) register(program);
  return program;
}

/**
 * Commands whose action returns when their work is done (nothing runs on after it): once it has
 * and their output is written, the process ends at once rather than after Node takes its heap down
 * piece by piece, several ms of a command that takes a couple of hundred (DESIGN.md §10).
 */
const DONE_WITH_ACTION = new Set(['ls', 'status', 'log', 'prompt', 'checkpoint', 'checkpoints', 'changes', 'rollback']);

/** Exits once stdout and stderr have taken everything written to them (a pipe on macOS is written asynchronously). */
function exitWhenWritten(): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit()));
}

async function main(): Promise<void> {
  // `mori ls | head`: the reader went away. What it wanted was printed; end quietly, not with a stack.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
  const program = await buildProgram(process.argv[2]);
  program.commands.forEach((c) => c.exitOverride());
  try {
    await program.parseAsync(process.argv);
    if (DONE_WITH_ACTION.has(process.argv[2] ?? '')) exitWhenWritten();
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and --version exit 0; any other parse error is a usage error (exit 2)
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`mori: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}

// Not awaited at the top level: the bundled CLI is CommonJS (scripts/bundle-cli.mjs), which has none.
main().catch((err: unknown) => {
  process.stderr.write(`mori: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
