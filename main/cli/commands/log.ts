// `mori log S MESSAGE`: appends one entry to the session's work_log.md (a remote session's through its
// host's daemon). Runs in the CLI process.
import path from 'node:path';
import type { Command } from 'commander';
import { fail } from '../../../common/result.js';
import { resolveSession } from '../../state/resolve-session.js';
import { ranRemotely } from '../remote-of.js';
import { UnsafeStateFile } from '../../state/state-file-guard.js';
import { appendEntry } from '../../state/work-log.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { WORK_LOG } from '../../../common/state-files.js';

export function registerLog(program: Command): void {
  program
    .command('log <session> <message...>')
    .description("append an entry to the session's work_log.md")
    .option('--json', 'print JSON')
    .action(async (spec: string, words: string[], opts: OutputOptions) => {
      const message = words.join(' ').trim();
      if (message.length === 0) return reportFailure(fail('usage', 'the message is empty'), opts);
      if (await ranRemotely(spec, opts, (m, remote, session) => m.remoteLog(remote, session, message))) return;
      const dir = resolveSession(spec);
      if (!dir.ok) return reportFailure(dir, opts);
      const at = new Date();
      try {
        appendEntry(dir.value, [message], at);
      } catch (err) {
        if (err instanceof UnsafeStateFile) return reportFailure(fail('unreadable', err.message), opts);
        return reportFailure(fail('failed', `${path.join(dir.value, WORK_LOG)}: ${(err as Error).message}`), opts);
      }
      reportSuccess({ ok: true, at: at.toISOString(), file: path.join(dir.value, WORK_LOG) }, '', opts);
    });
}
