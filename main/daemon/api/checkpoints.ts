// `checkpoints.list`, `checkpoint.take`, `changes.list`, `changes.diff` and `rollback` (DESIGN.md §4,
// §12): a session's snapshots, what changed since one, and putting files back — refused with `busy`
// while its agent is working unless the request confirms; a checkpoint taken on demand is announced
// (`checkpoint.written`) like a periodic one. Thin over main/supervisor/checkpoints/, writing session.json
// through the supervisor's SessionStore and running git under its checkpoint limiter.
// Runs in the daemon.
import { BUSY_MESSAGE, rollbackNeedsConfirm } from '../../../common/checkpoints.js';
import { fail, ok } from '../../../common/result.js';
import { projectDirOf } from '../../state/project-dir.js';
import { NOT_A_REPOSITORY } from '../../git/snapshot.js';
import { sessionChanges, sessionCheckpoints, sessionDiff, withSessionRepo, checkpointInfo } from '../../supervisor/checkpoints/changes.js';
import { writeCheckpoint } from '../../supervisor/checkpoints/checkpoint.js';
import { rollbackSession } from '../../supervisor/checkpoints/rollback.js';
import { listCheckpoints } from '../../git/snapshot.js';
import { sessionDir, type Handler } from './context.js';

export const listSessionCheckpoints: Handler<'checkpoints.list'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const r = await sessionCheckpoints(s.value.stateDir);
  return r.ok ? ok({ checkpoints: r.value }) : r;
};

export const takeSessionCheckpoint: Handler<'checkpoint.take'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const project = projectDirOf(s.value.stateDir);
  if (!project.ok) return project;
  const r = await writeCheckpoint(s.value.stateDir, project.value, ctx.supervisor.checkpointPorts, new Date(), { reason: 'on demand', message: p.message });
  if (!r.ok) return r;
  const cp = r.value.checkpoint;
  const snap = cp.snapshot;
  if (snap === null) return fail('failed', `${project.value}: ${NOT_A_REPOSITORY}`);
  // Windows showing the session's Changes tab refresh on it, as after a periodic checkpoint.
  ctx.events.emit({ type: 'checkpoint.written', at: Date.now(), sessionId: s.value.id, name: s.value.name, gitHead: cp.gitHead, changedFiles: cp.changedFiles.length, changed: r.value.changed });
  return withSessionRepo(s.value.stateDir, async ({ git, sessionId }) => {
    const entry = (await listCheckpoints(git, sessionId)).find((e) => e.seq === snap.seq);
    return entry ? ok({ created: r.value.changed, checkpoint: checkpointInfo(entry), changedFiles: cp.changedFiles }) : fail('failed', `checkpoint #${snap.seq} is gone from the repository`);
  });
};

export const listSessionChanges: Handler<'changes.list'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? sessionChanges(s.value.stateDir, p.since) : s;
};

export const diffSessionChanges: Handler<'changes.diff'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? sessionDiff(s.value.stateDir, p.since, p.paths) : s;
};

export const rollbackSessionFiles: Handler<'rollback'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const live = ctx.supervisor.list().find((x) => x.id === s.value.id);
  if (!p.dryRun && !p.confirm && rollbackNeedsConfirm(live)) return fail('busy', BUSY_MESSAGE);
  return rollbackSession({ stateDir: s.value.stateDir, to: p.to, files: p.files, dryRun: p.dryRun }, ctx.supervisor.checkpointPorts);
};
