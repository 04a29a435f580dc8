// `mori ls` and `mori status S`: what sessions exist and where each stands. Runs in the CLI process.
import type { Command } from 'commander';
import { readRegistry } from '../../state/registry.js';
import { resolveSession } from '../../state/resolve-session.js';
import { summarize, type SessionSummary } from '../../state/session-summary.js';
import { moriHome } from '../../state/mori-home.js';
import { readStateProblems, type StateProblem } from '../../supervisor/state-problems.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

function intentText(s: SessionSummary): string {
  if (!s.session) return 'unreadable';
  const i = s.session.intent;
  const base = i.kind === 'interrupted' ? `interrupted (${i.reason})` : i.kind === 'attention' ? `attention (${i.reason})` : i.kind;
  return s.supervisedBy ? `${base}, supervised by pid ${s.supervisedBy.pid}` : base;
}

function line(s: SessionSummary, problem?: StateProblem): string {
  if (!s.ok || !s.session) return `?  ${s.stateDir}\n   error: ${s.error}`;
  const x = s.session;
  // A state file the supervisor could not write: session.json may not say what the supervisor meant.
  const unwritable = problem ? `\n   attention (state-unwritable): ${problem.message}` : '';
  return `${x.name}  ${intentText(s)}  ${x.agent.profile}/${x.backend}  ${x.projectDir}\n   task: ${s.task ?? '-'}${s.error ? `\n   warning: ${s.error}` : ''}${unwritable}`;
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('list the registered sessions')
    .option('--json', 'print JSON')
    .action((opts: OutputOptions) => {
      const reg = readRegistry();
      if (!reg.ok) return reportFailure(reg, opts);
      const problems = readStateProblems(moriHome());
      const sessions = reg.value.map((e) => {
        const problem = problems.get(e.id);
        return { ...summarize(e.stateDir), ...(problem ? { stateProblem: problem } : {}) };
      });
      reportSuccess({ ok: true, sessions }, sessions.length === 0 ? 'No sessions yet: `mori init --name N --agent PROFILE`.' : sessions.map((s) => line(s, s.stateProblem)).join('\n'), opts);
    });

  program
    .command('status <session>')
    .description('show one session: intent, task, last work-log entry')
    .option('--json', 'print JSON')
    .action((spec: string, opts: OutputOptions) => {
      const dir = resolveSession(spec);
      if (!dir.ok) return reportFailure(dir, opts);
      const s = summarize(dir.value);
      if (!s.ok || !s.session) return reportFailure({ ok: false, code: 'unreadable', message: s.error ?? `${dir.value}: unreadable` }, opts);
      const last = s.lastLog ? `\nlast log entry (${s.lastLog.heading}):\n${s.lastLog.lines.map((l) => `  - ${l}`).join('\n')}` : '';
      reportSuccess(
        { ...s },
        `${line(s)}\nid: ${s.session.id}\nstate dir: ${s.stateDir}${last}`,
        opts,
      );
    });
}
