// `mori ls`: what sessions exist and where each stands — the live state and activity from the
// running supervisor when one answers (main/cli/live-state.ts), else what the state files last
// recorded, said as such; with a supervisor, each row also shows today's tokens and the context used. With a supervisor running, it lists the sessions itself (its parsers are
// warm), so this command loads no state-file parsers or schemas of its own; it reads the files only
// when none answers. Every remote's sessions follow as `host:session` rows, each remote asked at
// once and given up on after a short deadline (an unreachable one is marked, never waited for).
// Runs in the CLI process.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { StateDirSummary } from '../../state/session-summary.js';
import type { StateProblem } from '../../supervisor/session/state-problems.js';
import type { ListingEntry } from '../../supervisor/session/session-listing.js';
import { moriHome } from '../../state/mori-home.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { listingFromDaemon, liveLine, liveState, noLiveNote, type LiveState } from '../live-state.js';
import { remotesPath } from '../../remote/remotes-path.js';
import type { RemoteListing } from '../../remote/remote-sessions.js';
import type { Failure } from '../../../common/result.js';
import { visibleLines, visibleText } from '../../../common/visible-text.js';
import { profileWords, recordedWords } from '../../../common/session-view.js';
import type { ListedUsage } from '../../../common/usage-figures.js';
import { listedUsageText } from '../usage-column.js';
import { awakeWords } from '../../power/keep-awake.js';
import { localStamp } from '../../../common/time-words.js';

/** Every remote's listing (none without remotes.json: nothing of ssh is loaded then), or why remotes.json cannot be read. */
async function remoteListings(): Promise<{ listings: RemoteListing[]; problem: Failure | null }> {
  // No remotes.json (most people): the remotes' schemas are not even loaded.
  if (!existsSync(remotesPath(moriHome()))) return { listings: [], problem: null };
  const { readRemotes } = await import('../../remote/remotes-store.js');
  const remotes = readRemotes(moriHome());
  if (!remotes.ok) return { listings: [], problem: remotes };
  if (remotes.value.length === 0) return { listings: [], problem: null };
  const { listRemotes } = await import('../../remote/remote-sessions.js');
  return { listings: await listRemotes(remotes.value), problem: null };
}

function intentText(s: StateDirSummary): string {
  if (!s.session) return 'unreadable';
  const i = s.session.intent;
  const base = recordedWords(i);
  return s.supervisedBy ? `${base}, supervised by pid ${s.supervisedBy.pid}` : base;
}

export function line(s: StateDirSummary, live: LiveState | null, problem?: StateProblem): string {
  // A state file the supervisor could not write: session.json may not say what the supervisor meant.
  const unwritable = problem ? `\n   attention (${problem.reason ?? 'state-unwritable'}): ${visibleText(problem.message)}` : '';
  if (!s.ok || !s.session) return `?  ${visibleText(s.stateDir)}\n   error: ${visibleText(s.error ?? '')}${unwritable}`;
  const x = s.session;
  const now = live ? liveLine(live, x.id) : null;
  const branch = x.worktree ? `  ⎇ ${visibleText(x.worktree.branch)}` : '';
  const sandboxed = x.sandbox?.on ? `  sandboxed (network ${x.sandbox.network})` : '';
  const used = listedUsageText((s as { usage?: ListedUsage | null }).usage);
  return `${x.name}  ${now ?? intentText(s)}  ${profileWords(x.agent.profile, x.handedOver)}/${x.backend}${used ? `  ${used}` : ''}  ${visibleText(x.projectDir)}${branch}${sandboxed}\n   task: ${visibleText(s.task ?? '-')}${s.error ? `\n   warning: ${visibleText(s.error)}` : ''}${unwritable}`;
}

async function printListing(sessions: ListingEntry[], live: LiveState | null, remote: ReturnType<typeof remoteListings>, opts: OutputOptions): Promise<void> {
  const { listings, problem } = await remote;
  const { remoteRows } = listings.length > 0 ? await import('../remote-rows.js') : { remoteRows: () => [] };
  const text = (): string => {
    const local = sessions.length === 0 ? 'No sessions yet: `mori init --name N --agent PROFILE`.' : sessions.map((s) => line(s, live, s.stateProblem)).join('\n');
    const awake = live?.awake ? awakeWords(live.awake, (ms) => localStamp(ms).slice(11)) : null;
    return [live ? local : `${local}\n${noLiveNote()}`, ...listings.flatMap(remoteRows), ...(awake ? [`(${awake})`] : [])].join('\n');
  };
  reportSuccess({ ok: true, supervisor: live ? { pid: live.pid } : null, sessions, remotes: listings, ...(problem ? { remotesProblem: problem.message } : {}) }, text, opts);
  // The local list is shown all the same; the file that keeps the remotes from it is named.
  if (problem) {
    if (!opts.json) process.stderr.write(`mori: ${visibleLines(problem.message)}\n`);
    process.exitCode = 3;
  }
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('list the registered sessions')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions) => {
      // Asked first, so the remotes' ssh handshakes overlap the local work.
      const remote = remoteListings();
      const listed = await listingFromDaemon();
      if (listed) return printListing(listed.sessions, listed.live, remote, opts);
      // No supervisor answers (or one too old to list): read every session's files here.
      const { listRegisteredSessions } = await import('../../supervisor/session/session-listing.js');
      const live = await liveState();
      const local = listRegisteredSessions(moriHome(), live?.sessions ?? null);
      if (!local.ok) return reportFailure(local, opts);
      await printListing(local.value, live, remote, opts);
    });
}
