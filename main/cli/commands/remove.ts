// `mori rename S NEWNAME` and `mori rm S [--delete-state] [--remove-worktree [--force]] [--yes]` (DESIGN.md §9): through the running
// supervisor (`session.rename`, `session.remove`), or by the CLI itself when none answers
// (offline-admin.ts). Both are the person's: refused from inside a supervised agent, here and by the daemon.
// `rm` asks before it acts when run in a terminal; elsewhere it needs --yes. A session's own worktree
// (session-worktree.ts) is kept, or removed after the session with --remove-worktree (by the supervisor
// when one answers, else here; both through session-removal.ts). Runs in the CLI process.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { fail, ok } from '../../../common/result.js';
import type { SessionWorktree } from '../../../common/session.js';
import { openSession } from '../../state/resolve-session.js';
import { sessionWorktreeOf, worktreeRemovalProblem } from '../../git/session-worktree.js';
import { removeWithWorktree } from '../../supervisor/session/session-removal.js';
import { moriHome } from '../../state/mori-home.js';
import { refusedInsideAgent } from '../approver-check.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import type { Result } from '../../../common/result.js';
import { removeOffline, renameOffline } from '../offline-admin.js';
import { viaRunningDaemon } from '../running-daemon.js';
import { sessionRef } from './control.js';

interface RmOptions extends OutputOptions {
  deleteState?: boolean;
  yes?: boolean;
  removeWorktree?: boolean;
  force?: boolean;
}

/** The session's own worktree, checked (none for a session without one, or one not found here). */
async function worktreeOf(spec: string, opts: RmOptions): Promise<Result<SessionWorktree | null>> {
  const opened = openSession(spec);
  if (!opened.ok) return opts.removeWorktree ? opened : ok(null);
  const wt = sessionWorktreeOf(opened.value.stateDir, opened.value.session, moriHome());
  if (!wt.ok) return opts.removeWorktree ? wt : ok(null);
  if (!opts.removeWorktree || wt.value === null || opts.force) return wt;
  const problem = await worktreeRemovalProblem(wt.value);
  if (!problem.ok) return problem;
  return problem.value === null ? wt : fail('conflict', `${problem.value}; nothing was removed (pass --force to remove the worktree anyway)`);
}

/** Asks on the terminal; anything but y/yes is no. */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function registerRemove(program: Command): void {
  program
    .command('rename <session> <newname>')
    .description('give a stopped session a new name (its id stays; its state dir moves to .mori/<newname>/)')
    .option('--json', 'print JSON')
    .action(async (spec: string, name: string, opts: OutputOptions) => {
      const refused = await refusedInsideAgent(moriHome(), '`mori rename` (renaming a session)');
      if (refused) return reportFailure(refused, opts);
      const r = await viaRunningDaemon<unknown>(
        'mori rm/rename',
        (c) => c.request('session.rename', { session: sessionRef(spec), name }),
        () => renameOffline(spec, name, moriHome()),
      );
      if (!r.ok) return reportFailure(r, opts);
      const info = r.value as { id: string; name: string; stateDir: string };
      reportSuccess({ ok: true, session: r.value }, `Renamed ${spec} to "${info.name}" (${info.id})\n  state dir: ${info.stateDir}`, opts);
    });

  program
    .command('rm <session>')
    .description('stop the session\'s agent and unregister it; its state dir is kept unless --delete-state')
    .option('--delete-state', 'also delete its state dir (.mori/<name>/)')
    .option('--remove-worktree', 'also remove the session\'s git worktree (its branch is kept); refused with uncommitted changes or unmerged commits')
    .option('--force', 'with --remove-worktree: remove it even then')
    .option('-y, --yes', 'do not ask for confirmation (needed when not run in a terminal)')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: RmOptions) => {
      const refused = await refusedInsideAgent(moriHome(), '`mori rm` (removing a session)');
      if (refused) return reportFailure(refused, opts);
      if (opts.force && !opts.removeWorktree) return reportFailure(fail('usage', '--force is only for --remove-worktree'), opts);
      const wt = await worktreeOf(spec, opts);
      if (!wt.ok) return reportFailure(wt, opts);
      if (opts.removeWorktree && wt.value === null) return reportFailure(fail('usage', `session "${spec}" has no worktree of its own`), opts);
      const what = `Remove session "${spec}"${opts.deleteState ? ' and delete its state files' : ' (its state files are kept)'}?`;
      if (!opts.yes) {
        if (!process.stdin.isTTY || opts.json) return reportFailure(fail('usage', `mori rm asks before removing; pass --yes to remove "${spec}" without asking`), opts);
        if (!(await confirm(what))) return reportFailure(fail('usage', 'not removed'), opts);
      }
      const deleteState = opts.deleteState ?? false;
      const removeWorktree = opts.removeWorktree ?? false;
      const force = removeWorktree && (opts.force ?? false);
      // The one removal (session-removal.ts) takes the worktree after the session, checked again once the agent is stopped.
      const r = await viaRunningDaemon<unknown>(
        'mori rm/rename',
        (c) => c.request('session.remove', { session: sessionRef(spec), deleteState, removeWorktree, force }),
        () => removeWithWorktree(spec, wt.value, { removeWorktree, force }, () => removeOffline(spec, deleteState, moriHome())),
      );
      if (!r.ok) return reportFailure(r, opts);
      const v = r.value as { id: string; name: string; stateDir: string; stateDeleted: boolean };
      const tree = wt.value;
      const treeLine = tree ? `\n  worktree ${opts.removeWorktree ? `removed: ${tree.path} (branch ${tree.branch} kept)` : `kept: ${tree.path} (branch ${tree.branch})`}` : '';
      const stateLine = tree && opts.removeWorktree ? '' : `\n  state dir ${v.stateDeleted ? 'deleted' : `kept: ${v.stateDir}`}`;
      reportSuccess({ ok: true, ...v, ...(tree ? { worktree: { ...tree, removed: removeWorktree } } : {}) }, `Removed session "${v.name}" (${v.id})${stateLine}${treeLine}`, opts);
    });
}
