// `state.read` and `state.write` (DESIGN.md §12): a session's editable state files, read with a
// version and written only against the version read (daemon-state-files.ts). Runs in the daemon.
import { readStateFile, writeStateFile } from '../daemon-state-files.js';
import { sessionDir, type Handler } from './context.js';

export const readState: Handler<'state.read'> = (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? readStateFile(s.value.stateDir, p.file) : s;
};

export const writeState: Handler<'state.write'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? writeStateFile(s.value.stateDir, p.file, p.text, p.baseVersion) : s;
};
