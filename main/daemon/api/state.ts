// `state.read` and `state.write` (DESIGN.md §12): a session's editable state files, read with a
// version and written only against the version read (daemon-state-files.ts). Runs in the daemon.
import { parseParams } from '../../../common/ipc.js';
import { readStateFile, writeStateFile } from '../daemon-state-files.js';
import { bad, sessionDir, type Handler } from './context.js';

export const readState: Handler = (ctx, raw) => {
  const p = parseParams('state.read', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  return s.ok ? readStateFile(s.value.stateDir, p.value.file) : s;
};

export const writeState: Handler = (ctx, raw) => {
  const p = parseParams('state.write', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  return s.ok ? writeStateFile(s.value.stateDir, p.value.file, p.value.text, p.value.baseVersion) : s;
};
