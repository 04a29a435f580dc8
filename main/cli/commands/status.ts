// `mori status S`: one session — its intent, task, where the agent left off (next steps, the files it
// touched and its last working state, from session_state.md) beside the last work-log entry, how it
// resumes and the agent's earlier sessions a fresh start left, with the live state, the agent's
// permission mode and a usage line when a supervisor answers; `status host:session` asks that host's daemon. Runs in the
// CLI process.
import path from 'node:path';
import type { Command } from 'commander';
import { MarkdownDoc } from '../../state/markdown-doc.js';
import { parseSessionState } from '../../state/session-state.js';
import { resolveSession } from '../../state/resolve-session.js';
import { summarize } from '../../state/session-summary.js';
import { readRegularFileSync } from '../../state/state-file-guard.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { liveState, noLiveNote } from '../live-state.js';
import { line } from './ls.js';
import { remoteTarget } from '../remote-target.js';
import { usageFromDaemon, usageLine } from '../usage-words.js';
import { visibleText } from '../../../common/visible-text.js';
import type { SessionRecord } from '../../../common/session.js';
import { SESSION_STATE } from '../../../common/state-files.js';

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
  if (l.lastWorkingState) out.push(`last working state: ${visibleText(l.lastWorkingState)}`);
  out.push(l.nextSteps.length > 0 ? 'next steps:' : 'next steps: -');
  out.push(...l.nextSteps.map((step, i) => `  ${i + 1}. ${visibleText(step)}`));
  out.push(`files touched: ${l.filesTouched.length > 0 ? l.filesTouched.map(visibleText).join(', ') : '-'}`);
  return out;
}

/** How it resumes, and the agent's earlier conversations a fresh start left (to go back to one). */
function resumeText(session: SessionRecord): string {
  const earlier = session.agent.previousIds;
  return `resume: ${session.resume ?? "as the daemon's default"}${earlier.length > 0 ? `; earlier agent sessions: ${earlier.map(visibleText).join(', ')}` : ''}`;
}

export function registerStatus(program: Command): void {
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
      const last = s.lastLog ? [`last log entry (${visibleText(s.lastLog.heading)}):`, ...s.lastLog.lines.map((l) => `  - ${visibleText(l)}`)] : [];
      const warning = progress.error ? [`warning: ${visibleText(progress.error)}`] : [];
      // Usage is read by the daemon (it keeps each record's offset); none without one.
      const used = live ? await usageFromDaemon([s.session.id]) : null;
      const usage = used?.ok ? (used.value[0] ?? null) : null;
      const mode = live?.sessions.get(s.session.id)?.permissionMode;
      reportSuccess(
        { ...s, sandboxed: s.session.sandbox?.on === true, leftOff: progress.value, live: live?.sessions.get(s.session.id) ?? null, supervisor: live ? { pid: live.pid } : null, usage },
        [line(s, live), `id: ${s.session.id}`, `state dir: ${visibleText(s.stateDir)}`, resumeText(s.session), ...(mode !== undefined ? [`permission mode: ${visibleText(mode)}`] : []), ...(usage ? [usageLine(usage)] : []), ...leftOffText(progress.value), ...last, ...warning, ...(live ? [] : [noLiveNote()])].join('\n'),
        opts,
      );
    });
}
