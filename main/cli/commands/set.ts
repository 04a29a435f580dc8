// `mori set S KEY=VALUE…`: changes a session's own settings in its session.json:
// `resume=auto|by-id|fresh|default` (how a relaunch takes up the conversation) and
// `onUsageLimit=wait|handoff:<agent>[:stay]|default` (what it does at a usage limit: wait, or continue
// with another agent and go back at the reset, or stay with it); `default` follows the
// daemon's settings.json. Written by the CLI's own writer of session.json, which never undoes a
// write made meanwhile; a running supervisor reads the file again before each relaunch, so the next
// one follows it. Runs in the CLI process.
import type { Command } from 'commander';
import { fail, type Result } from '../../../common/result.js';
import { OnUsageLimit, RESUME_MODES, ResumeMode, type SessionRecord } from '../../../common/session.js';
import { resolveSession } from '../../state/resolve-session.js';
import { sessionFilePath } from '../../state/session-file.js';
import { offlineSessionWrite } from '../offline-session-write.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

const KEYS = ['resume', 'onUsageLimit'] as const;

type Change = (s: SessionRecord) => SessionRecord;

/** The change `KEY=VALUE` makes, or why it is not one. */
export function settingChange(pair: string): Result<Change> {
  const at = pair.indexOf('=');
  if (at <= 0) return fail('usage', `"${pair}": expected KEY=VALUE (keys: ${KEYS.join(', ')})`);
  const key = pair.slice(0, at);
  const value = pair.slice(at + 1);
  if (key !== 'resume' && key !== 'onUsageLimit') return fail('usage', `"${key}" is not a session setting; use one of ${KEYS.join(', ')}`);
  if (value === 'default') {
    return {
      ok: true,
      value: (s) => {
        const rest = { ...s };
        delete rest[key];
        return rest;
      },
    };
  }
  if (key === 'onUsageLimit') {
    const policy = OnUsageLimit.safeParse(value);
    if (!policy.success) return fail('usage', `onUsageLimit: "${value}" is not a policy; use wait, handoff:<claude|codex|gemini|opencode|aider> (back to this agent at the reset), handoff:<agent>:stay or default`);
    return { ok: true, value: (s) => ({ ...s, onUsageLimit: policy.data }) };
  }
  const mode = ResumeMode.safeParse(value);
  if (!mode.success) return fail('usage', `resume: "${value}" is not a resume mode; use one of ${RESUME_MODES.join(', ')} or default`);
  return { ok: true, value: (s) => ({ ...s, resume: mode.data }) };
}

export function registerSet(program: Command): void {
  program
    .command('set <session> <settings...>')
    .description(`change a session's settings: resume=${RESUME_MODES.join('|')}|default, onUsageLimit=wait|handoff:<agent>[:stay]|default`)
    .option('--json', 'print JSON')
    .action(async (spec: string, pairs: string[], opts: OutputOptions) => {
      const changes: Change[] = [];
      for (const pair of pairs) {
        const c = settingChange(pair);
        if (!c.ok) return reportFailure(c, opts);
        changes.push(c.value);
      }
      const dir = resolveSession(spec);
      if (!dir.ok) return reportFailure(dir, opts);
      const written = await offlineSessionWrite(dir.value, (s) => changes.reduce((acc, change) => change(acc), s));
      if (!written.ok) return reportFailure(fail(written.code, `${sessionFilePath(dir.value)}: ${written.message}`), opts);
      const resume = written.value.resume ?? null;
      const onUsageLimit = written.value.onUsageLimit ?? null;
      const words = `${written.value.name}: resume ${resume ?? "as the daemon's default"}; at a usage limit ${onUsageLimit ?? "as the daemon's default"}`;
      reportSuccess({ ok: true, name: written.value.name, resume, onUsageLimit }, words, opts);
    });
}
