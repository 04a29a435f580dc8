// `mori ls` and `mori status S`: what sessions exist and where each stands. Runs in the CLI process.
import type { Command } from 'commander';
import { readRegistry } from '../../state/registry.js';
import { resolveSession } from '../../state/resolve-session.js';
import { summarize, type SessionSummary } from '../../state/session-summary.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

function intentText(s: SessionSummary): string {
  if (!s.session) return 'unreadable';
  const i = s.session.intent;
  const base = i.kind === 'interrupted' ? `interrupted (${i.reason})` : i.kind === 'attention' ? `attention (${i.reason})` : i.kind;
  return s.supervisedBy ? `${base}, supervised by pid ${s.supervisedBy.pid}` : base;
}

function line(s: SessionSummary): string {
  if (!s.ok || !s.session) return `?  ${s.stateDir}\n   error: ${s.error}`;
  const x = s.session;
  return `${x.name}  ${intentText(s)}  ${x.agent.profile}/${x.backend}  ${x.projectDir}\n   task: ${s.task ?? '-'}${s.error ? `\n   warning: ${s.error}` : ''}`;
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('list the registered sessions')
    .option('--json', 'print JSON')
    .action((opts: OutputOptions) => {
      const reg = readRegistry();
      if (!reg.ok) return reportFailure(reg, opts);
      const sessions = reg.value.map((e) => summarize(e.stateDir));
      reportSuccess({ ok: true, sessions }, sessions.length === 0 ? 'No sessions yet: `mori init --name N --agent PROFILE`.' : sessions.map(line).join('\n'), opts);
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
