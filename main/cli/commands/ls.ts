// `mori ls` and `mori status S`: what sessions exist and where each stands — the live state and
// activity from the running supervisor when one answers (main/cli/live-state.ts), else what the
// state files last recorded, said as such. Runs in the CLI process.
import type { Command } from 'commander';
import { readRegistry } from '../../state/registry.js';
import { resolveSession } from '../../state/resolve-session.js';
import { summarize, type SessionSummary } from '../../state/session-summary.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { liveLine, liveState, noLiveNote, type LiveState } from '../live-state.js';

function intentText(s: SessionSummary): string {
  if (!s.session) return 'unreadable';
  const i = s.session.intent;
  const base = i.kind === 'interrupted' ? `interrupted (${i.reason})` : i.kind === 'attention' ? `attention (${i.reason})` : i.kind;
  return s.supervisedBy ? `${base}, supervised by pid ${s.supervisedBy.pid}` : base;
}

function line(s: SessionSummary, live: LiveState | null = null): string {
  if (!s.ok || !s.session) return `?  ${s.stateDir}\n   error: ${s.error}`;
  const x = s.session;
  const now = live ? liveLine(live, x.id) : null;
  return `${x.name}  ${now ?? intentText(s)}  ${x.agent.profile}/${x.backend}  ${x.projectDir}\n   task: ${s.task ?? '-'}${s.error ? `\n   warning: ${s.error}` : ''}`;
}

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('list the registered sessions')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions) => {
      const reg = readRegistry();
      if (!reg.ok) return reportFailure(reg, opts);
      const live = await liveState();
      const sessions = reg.value.map((e) => {
        const s = summarize(e.stateDir);
        return { ...s, live: live?.sessions.get(s.session?.id ?? e.id) ?? null };
      });
      const text = sessions.length === 0 ? 'No sessions yet: `mori init --name N --agent PROFILE`.' : sessions.map((s) => line(s, live)).join('\n');
      reportSuccess({ ok: true, supervisor: live ? { pid: live.pid } : null, sessions }, live ? text : `${text}\n${noLiveNote()}`, opts);
    });

  program
    .command('status <session>')
    .description('show one session: intent, task, last work-log entry')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: OutputOptions) => {
      const dir = resolveSession(spec);
      if (!dir.ok) return reportFailure(dir, opts);
      const s = summarize(dir.value);
      if (!s.ok || !s.session) return reportFailure({ ok: false, code: 'unreadable', message: s.error ?? `${dir.value}: unreadable` }, opts);
      const live = await liveState();
      const last = s.lastLog ? `\nlast log entry (${s.lastLog.heading}):\n${s.lastLog.lines.map((l) => `  - ${l}`).join('\n')}` : '';
      reportSuccess(
        { ...s, live: live?.sessions.get(s.session.id) ?? null, supervisor: live ? { pid: live.pid } : null },
        `${line(s, live)}\nid: ${s.session.id}\nstate dir: ${s.stateDir}${last}${live ? '' : `\n${noLiveNote()}`}`,
        opts,
      );
    });
}
