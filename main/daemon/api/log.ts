// `log.tail` and `log.append` (DESIGN.md §12): a session's work log, read in pages from the newest
// entry back, and a person's note appended to it (daemon-state-files.ts). Runs in the daemon.
import { ok } from '../../../common/result.js';
import { appendLog, tailLog } from '../daemon-state-files.js';
import { sessionDir, type Handler } from './context.js';

export const tailWorkLog: Handler<'log.tail'> = (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? ok(tailLog(s.value.stateDir, p.before, p.limit)) : s;
};

export const appendWorkLog: Handler<'log.append'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? ok(await appendLog(s.value.stateDir, p.text)) : s;
};
