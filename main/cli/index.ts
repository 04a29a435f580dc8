// The `mori` command (DESIGN.md §9): a thin commander shell over main/. Every command takes --json,
// never waits for input when stdin is not a terminal, and exits 0 ok, 1 failed, 2 usage, 3 not found
// or unreadable. Runs as its own Node process.
import { Command, CommanderError } from 'commander';
import { registerChecks } from './commands/checks.js';
import { registerControl } from './commands/control.js';
import { registerInit } from './commands/init.js';
import { registerLog } from './commands/log.js';
import { registerLs } from './commands/ls.js';
import { registerPrompt } from './commands/prompt.js';
import { registerUp } from './commands/up.js';

export function buildProgram(): Command {
  const program = new Command('mori')
    .description('Keeps coding agents working through crashes, sleep, network drops and reboots.')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  registerInit(program);
  registerLs(program);
  registerLog(program);
  registerPrompt(program);
  registerChecks(program);
  registerUp(program);
  registerControl(program);
  return program;
}

async function main(): Promise<void> {
  const program = buildProgram();
  program.commands.forEach((c) => c.exitOverride());
  try {
    await program.parseAsync(process.argv);
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

await main();
