// `mori checkpoint S [-m text]`, `mori checkpoints S`, `mori changes S [--since X] [--stat]` and
// `mori rollback S <checkpoint> [--files PATH...] [--dry-run] [--yes]` (DESIGN.md §4, §9): their
// options; what each does is checkpoint-actions.ts, loaded when one runs. `mori changes` on a state
// dir's path begins the work tree's scan before loading it (scan-ahead.ts): git scans on one core
// while this process loads the session's schemas on the other. Runs in the CLI process.
import type { Command } from 'commander';
import { moriCacheDir, rememberReposIn } from '../../git/remembered-repos.js';
import type { ChangesCliOptions, CheckpointCliOptions, RollbackCliOptions } from './checkpoint-actions.js';
import type { OutputOptions } from '../output.js';

const actions = () => import('./checkpoint-actions.js');

export function registerCheckpoints(program: Command): void {
  // Each of these is a fresh process: it remembers which repository a project is in between runs.
  rememberReposIn(moriCacheDir());

  program
    .command('checkpoint <session>')
    .description('snapshot the work tree now (nothing new when it is unchanged)')
    .option('-m, --message <text>', 'say what this checkpoint is')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: CheckpointCliOptions) => (await actions()).checkpointNow(spec, opts));

  program
    .command('checkpoints <session>')
    .description("list the session's checkpoints: the first and the most recent ones")
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: OutputOptions) => (await actions()).listCheckpointsOf(spec, opts));

  program
    .command('changes <session>')
    .description('files added, modified and deleted since a checkpoint (default: the first), with the patch')
    .option('--since <checkpoint>', 'start, last, #N or a checkpoint id', 'start')
    .option('--stat', 'the file list and line counts only')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: ChangesCliOptions) => {
      // A remote's session (`host:session`) has no `/`; a local state dir's path is scanned ahead.
      const ahead = spec.includes(':') ? null : (await import('../../supervisor/checkpoints/scan-ahead.js')).scanAhead(spec);
      // Loading is synchronous: begun before git starts, it would hold the scan's start back.
      await ahead?.started;
      const run = await actions();
      if (ahead === null && (await run.changesOfRemote(spec, opts))) return;
      await run.showChanges(spec, opts, ahead);
    });

  program
    .command('rollback <session> <checkpoint>')
    .description('put files back as a checkpoint recorded them, after checkpointing the current state')
    .option('--files <paths...>', 'only these project-relative paths')
    .option('--dry-run', 'list what would change, change nothing')
    .option('--yes', 'go ahead even while the agent is working')
    .option('--json', 'print JSON')
    .action(async (spec: string, to: string, opts: RollbackCliOptions) => (await actions()).rollBack(spec, to, opts));
}
