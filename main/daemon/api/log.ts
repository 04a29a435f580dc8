// `log.tail` and `log.append` (DESIGN.md §12): a session's work log, read in pages from the newest
// entry back, and a person's note appended to it (daemon-state-files.ts). Runs in the daemon.
import { parseParams } from '../../../common/ipc.js';
import { ok } from '../../../common/result.js';
import { appendLog, tailLog } from '../daemon-state-files.js';
import { bad, sessionDir, type Handler } from './context.js';

export const tailWorkLog: Handler = (ctx, raw) => {
  const p = parseParams('log.tail', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  return s.ok ? ok(tailLog(s.value.stateDir, p.value.before, p.value.limit)) : s;
};

export const appendWorkLog: Handler = async (ctx, raw) => {
  const p = parseParams('log.append', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  return s.ok ? ok(await appendLog(s.value.stateDir, p.value.text)) : s;
};
