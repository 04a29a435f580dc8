// `mori ls` and `mori status S`: what sessions exist and where each stands — the live state and
// activity from the running supervisor when one answers (main/cli/live-state.ts), else what the
// state files last recorded, said as such. `status` also shows where the agent left off — its next
// steps, the files it touched and its last working state, from session_state.md — beside the task
// and the last work-log entry. Every remote's sessions follow as `host:session` rows, each remote asked
// at once and given up on after a short deadline (an unreachable one is marked, never waited for);
// `status host:session` asks that host's daemon. Runs in the CLI process.
import path from 'node:path';
import type { Command } from 'commander';
import { MarkdownDoc } from '../../state/markdown-doc.js';
import { parseSessionState } from '../../state/session-state.js';
import { SESSION_STATE } from '../../state/state-dir.js';
import { readRegistry } from '../../state/registry.js';
import { resolveSession } from '../../state/resolve-session.js';
import { summarize, type SessionSummary } from '../../state/session-summary.js';
import { moriHome } from '../../state/mori-home.js';
import { readStateProblems, type StateProblem } from '../../supervisor/session/state-problems.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { liveLine, liveState, noLiveNote, type LiveState } from '../live-state.js';
import { readRegularFileSync } from '../../state/state-file-guard.js';
import { readRemotes } from '../../remote/remotes-store.js';
import type { RemoteListing } from '../../remote/remote-sessions.js';
import { remoteTarget } from '../remote-target.js';
import type { Failure } from '../../../common/result.js';

/** Every remote's listing (none without remotes.json: nothing of ssh is loaded then), or why remotes.json cannot be read. */
async function remoteListings(): Promise<{ listings: RemoteListing[]; problem: Failure | null }> {
  const remotes = readRemotes(moriHome());
  if (!remotes.ok) return { listings: [], problem: remotes };
  if (remotes.value.length === 0) return { listings: [], problem: null };
  const { listRemotes } = await import('../../remote/remote-sessions.js');
  return { listings: await listRemotes(remotes.value), problem: null };
}

function intentText(s: SessionSummary): string {
  if (!s.session) return 'unreadable';
  const i = s.session.intent;
  const base = i.kind === 'interrupted' ? `interrupted (${i.reason})` : i.kind === 'attention' ? `attention (${i.reason})` : i.kind;
  return s.supervisedBy ? `${base}, supervised by pid ${s.supervisedBy.pid}` : base;
}

function line(s: SessionSummary, live: LiveState | null, problem?: StateProblem): string {
  // A state file the supervisor could not write: session.json may not say what the supervisor meant.
  const unwritable = problem ? `\n   attention (${problem.reason ?? 'state-unwritable'}): ${problem.message}` : '';
  if (!s.ok || !s.session) return `?  ${s.stateDir}\n   error: ${s.error}${unwritable}`;
  const x = s.session;
  const now = live ? liveLine(live, x.id) : null;
  const branch = x.worktree ? `  ⎇ ${x.worktree.branch}` : '';
  return `${x.name}  ${now ?? intentText(s)}  ${x.agent.profile}/${x.backend}  ${x.projectDir}${branch}\n   task: ${s.task ?? '-'}${s.error ? `\n   warning: ${s.error}` : ''}${unwritable}`;
}

/** Where the agent left off, per session_state.md; null when the file is absent or unreadable. */
export interface LeftOff {
  nextSteps: string[];
  filesTouched: string[];
  lastWorkingState: string | null;
}

export function leftOff(stateDir: string): { value: LeftOff | null; error: string | null } {
  const file = path.join(stateDir, SESSION_STATE);
  try {
    const state = parseSessionState(new MarkdownDoc(readRegularFileSync(file)));
    return { value: { nextSteps: state.nextSteps, filesTouched: state.filesTouched, lastWorkingState: state.lastWorkingState }, error: null };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { value: null, error: code === 'ENOENT' ? null : `${file}: ${code ?? (err as Error).message}` };
  }
}

function leftOffText(l: LeftOff | null): string[] {
  if (l === null) return [];
  const out: string[] = [];
  if (l.lastWorkingState) out.push(`last working state: ${l.lastWorkingState}`);
  out.push(l.nextSteps.length > 0 ? 'next steps:' : 'next steps: -');
  out.push(...l.nextSteps.map((step, i) => `  ${i + 1}. ${step}`));
  out.push(`files touched: ${l.filesTouched.length > 0 ? l.filesTouched.join(', ') : '-'}`);
  return out;
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('list the registered sessions')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions) => {
      const reg = readRegistry();
      if (!reg.ok) return reportFailure(reg, opts);
      // Asked first, so the remotes' ssh handshakes overlap the local work.
      const remote = remoteListings();
      const live = await liveState();
      const problems = readStateProblems(moriHome());
      const sessions = reg.value.map((e) => {
        const s = summarize(e.stateDir);
        const problem = problems.get(e.id);
        const branch = s.session?.worktree?.branch;
        return { ...s, live: live?.sessions.get(s.session?.id ?? e.id) ?? null, ...(branch ? { branch } : {}), ...(problem ? { stateProblem: problem } : {}) };
      });
      const { listings, problem } = await remote;
      const { remoteRows } = listings.length > 0 ? await import('../remote-rows.js') : { remoteRows: () => [] };
      const local = sessions.length === 0 ? 'No sessions yet: `mori init --name N --agent PROFILE`.' : sessions.map((s) => line(s, live, s.stateProblem)).join('\n');
      const text = [live ? local : `${local}\n${noLiveNote()}`, ...listings.flatMap(remoteRows)].join('\n');
      reportSuccess({ ok: true, supervisor: live ? { pid: live.pid } : null, sessions, remotes: listings, ...(problem ? { remotesProblem: problem.message } : {}) }, text, opts);
      // The local list is shown all the same; the file that keeps the remotes from it is named.
      if (problem) {
        if (!opts.json) process.stderr.write(`mori: ${problem.message}\n`);
        process.exitCode = 3;
      }
    });

  program
    .command('status <session>')
    .description('show one session: intent, task, where the agent left off (next steps, files touched), last work-log entry')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: OutputOptions) => {
      const target = remoteTarget(spec);
      if (!target.ok) return reportFailure(target, opts);
      if (target.value) {
        const { remoteStatus } = await import('../remote-rows.js');
        const r = await remoteStatus(target.value.remote, target.value.session);
        if (!r.ok) return reportFailure(r, opts);
        return reportSuccess({ ok: true, ...r.value.value }, r.value.text, opts);
      }
      const dir = resolveSession(spec);
      if (!dir.ok) return reportFailure(dir, opts);
      const s = summarize(dir.value);
      if (!s.ok || !s.session) return reportFailure({ ok: false, code: 'unreadable', message: s.error ?? `${dir.value}: unreadable` }, opts);
      const live = await liveState();
      const progress = leftOff(dir.value);
      const last = s.lastLog ? [`last log entry (${s.lastLog.heading}):`, ...s.lastLog.lines.map((l) => `  - ${l}`)] : [];
      const warning = progress.error ? [`warning: ${progress.error}`] : [];
      reportSuccess(
        { ...s, leftOff: progress.value, live: live?.sessions.get(s.session.id) ?? null, supervisor: live ? { pid: live.pid } : null },
        [line(s, live), `id: ${s.session.id}`, `state dir: ${s.stateDir}`, ...leftOffText(progress.value), ...last, ...warning, ...(live ? [] : [noLiveNote()])].join('\n'),
        opts,
      );
    });
}
