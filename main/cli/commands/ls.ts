// `mori ls`: what sessions exist and where each stands — the live state and activity from the
// running supervisor when one answers (main/cli/live-state.ts), else what the state files last
// recorded, said as such. With a supervisor running, it lists the sessions itself (its parsers are
// warm), so this command loads no state-file parsers or schemas of its own; it reads the files only
// when none answers. Runs in the CLI process.
import type { Command } from 'commander';
import type { SessionSummary } from '../../state/session-summary.js';
import type { StateProblem } from '../../supervisor/session/state-problems.js';
import type { SessionListingEntry } from '../../supervisor/session/session-listing.js';
import { moriHome } from '../../state/mori-home.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { listingFromDaemon, liveLine, liveState, noLiveNote, type LiveState } from '../live-state.js';

function intentText(s: SessionSummary): string {
  if (!s.session) return 'unreadable';
  const i = s.session.intent;
  const base = i.kind === 'interrupted' ? `interrupted (${i.reason})` : i.kind === 'attention' ? `attention (${i.reason})` : i.kind;
  return s.supervisedBy ? `${base}, supervised by pid ${s.supervisedBy.pid}` : base;
}

export function line(s: SessionSummary, live: LiveState | null, problem?: StateProblem): string {
  // A state file the supervisor could not write: session.json may not say what the supervisor meant.
  const unwritable = problem ? `\n   attention (${problem.reason ?? 'state-unwritable'}): ${problem.message}` : '';
  if (!s.ok || !s.session) return `?  ${s.stateDir}\n   error: ${s.error}${unwritable}`;
  const x = s.session;
  const now = live ? liveLine(live, x.id) : null;
  return `${x.name}  ${now ?? intentText(s)}  ${x.agent.profile}/${x.backend}  ${x.projectDir}\n   task: ${s.task ?? '-'}${s.error ? `\n   warning: ${s.error}` : ''}${unwritable}`;
}

function printListing(sessions: SessionListingEntry[], live: LiveState | null, opts: OutputOptions): void {
  const text = sessions.length === 0 ? 'No sessions yet: `mori init --name N --agent PROFILE`.' : sessions.map((s) => line(s, live, s.stateProblem)).join('\n');
  reportSuccess({ ok: true, supervisor: live ? { pid: live.pid } : null, sessions }, live ? text : `${text}\n${noLiveNote()}`, opts);
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('list the registered sessions')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions) => {
      const listed = await listingFromDaemon();
      if (listed) return printListing(listed.sessions, listed.live, opts);
      // No supervisor answers (or one too old to list): read every session's files here.
      const { listRegisteredSessions } = await import('../../supervisor/session/session-listing.js');
      const live = await liveState();
      const local = listRegisteredSessions(moriHome(), live?.sessions ?? null);
      if (!local.ok) return reportFailure(local, opts);
      printListing(local.value, live, opts);
    });
}
