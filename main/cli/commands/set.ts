// `mori set S KEY=VALUE…`: changes a session's own settings in its session.json. One key so far:
// `resume=auto|by-id|fresh|default` (how a relaunch takes up the conversation; `default` follows the
// daemon's settings.json). Written by the CLI's own writer of session.json, which never undoes a
// write made meanwhile; a running supervisor reads the file again before each relaunch, so the next
// one follows it. Runs in the CLI process.
import type { Command } from 'commander';
import { fail, type Result } from '../../../common/result.js';
import { RESUME_MODES, ResumeMode, type SessionRecord } from '../../../common/session.js';
import { resolveSession } from '../../state/resolve-session.js';
import { sessionFilePath } from '../../state/session-file.js';
import { offlineSessionWrite } from '../offline-session-write.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

const KEYS = ['resume'] as const;

type Change = (s: SessionRecord) => SessionRecord;

/** The change `KEY=VALUE` makes, or why it is not one. */
export function settingChange(pair: string): Result<Change> {
  const at = pair.indexOf('=');
  if (at <= 0) return fail('usage', `"${pair}": expected KEY=VALUE (keys: ${KEYS.join(', ')})`);
  const key = pair.slice(0, at);
  const value = pair.slice(at + 1);
  if (key !== 'resume') return fail('usage', `"${key}" is not a session setting; use one of ${KEYS.join(', ')}`);
  if (value === 'default') {
    return {
      ok: true,
      value: (s) => {
        const rest = { ...s };
        delete rest.resume;
        return rest;
      },
    };
  }
  const mode = ResumeMode.safeParse(value);
  if (!mode.success) return fail('usage', `resume: "${value}" is not a resume mode; use one of ${RESUME_MODES.join(', ')} or default`);
  return { ok: true, value: (s) => ({ ...s, resume: mode.data }) };
}

export function registerSet(program: Command): void {
  program
    .command('set <session> <settings...>')
    .description(`change a session's settings: resume=${RESUME_MODES.join('|')}|default`)
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
      reportSuccess({ ok: true, name: written.value.name, resume }, `${written.value.name}: resume ${resume ?? "as the daemon's default"}`, opts);
    });
}
