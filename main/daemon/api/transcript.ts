// `transcript.read` (DESIGN.md §12): the end of a session's terminal transcript, in pages back from
// its end, as text. Runs in the daemon.
import path from 'node:path';
import { ok } from '../../../common/result.js';
import { TRANSCRIPT_DIR } from '../../state/state-dir.js';
import { readTranscript } from '../../terminals/transcript.js';
import { sessionDir, type Handler } from './context.js';

export const readSessionTranscript: Handler<'transcript.read'> = (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const t = readTranscript(path.join(s.value.stateDir, TRANSCRIPT_DIR), p.maxBytes, p.beforeEnd);
  return ok({ data: t.data.toString('utf8'), bytes: t.data.length, totalBytes: t.totalBytes });
};
