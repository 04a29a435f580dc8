// What `mori checkpoint|checkpoints|changes|rollback` do (DESIGN.md §4, §9), loaded by checkpoints.ts
// when one of them runs: take a snapshot now, list them, show what changed since one, and put files
// back as one recorded them. Thin over main/supervisor/checkpoints/; a remote session's through its
// host's daemon (remote-commands.ts); a checkpoint through the local daemon when one runs. Runs in the
// CLI process.
import { BUSY_MESSAGE, rollbackNeedsConfirm } from '../../../common/rollback-confirm.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { projectDirOf } from '../../state/project-dir.js';
import { openSession } from '../../state/resolve-session.js';
import { NOT_A_REPOSITORY } from '../../git/snapshot.js';
import { sessionChanges, sessionCheckpoints, sessionPatch } from '../../supervisor/checkpoints/changes.js';
import type { ScanAhead } from '../../supervisor/checkpoints/scan-ahead.js';
import { actionLines, checkpointRow, statLines } from '../checkpoint-text.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { ranRemotely } from '../remote-of.js';
import { visibleLines } from '../../../common/visible-text.js';
// Taking a checkpoint and rolling back load their modules (the work log, the daemon's client) when
// they run: `mori changes` starts as a fresh Node process, and its time is mostly loading code.

export interface CheckpointCliOptions extends OutputOptions {
  message?: string;
}
export interface ChangesCliOptions extends OutputOptions {
  since?: string;
  stat?: boolean;
}
export interface RollbackCliOptions extends OutputOptions {
  files?: string[];
  yes?: boolean;
  dryRun?: boolean;
}

/** A checkpoint taken on demand, by the running daemon or here. */
interface Taken {
  created: boolean;
  id: string;
  seq: number;
  commit: string;
  tree: string;
  changedFiles: string[];
}

/**
 * Takes a checkpoint of session `spec` now: through the running daemon when one answers (it writes
 * session.json through its own store and announces `checkpoint.written` to the window and
 * `mori ls`), else here.
 */
export async function checkpointNow(spec: string, opts: CheckpointCliOptions): Promise<void> {
  if (await ranRemotely(spec, opts, (m, remote, session) => m.remoteCheckpoint(remote, session, opts.message))) return;
  const opened = openSession(spec);
  if (!opened.ok) return reportFailure(opened, opts);
  const { stateDir, session } = opened.value;
  const { viaRunningDaemon } = await import('../running-daemon.js');
  const r = await viaRunningDaemon<Taken>(
    'mori checkpoint',
    async (c) => {
      const taken = await c.request('checkpoint.take', { session: session.id, ...(opts.message !== undefined ? { message: opts.message } : {}) });
      if (!taken.ok) return taken;
      const { created, checkpoint: cp, changedFiles = [] } = taken.value;
      return ok({ created, id: cp.id, seq: cp.seq, commit: cp.commit, tree: cp.tree, changedFiles });
    },
    () => checkpointHere(stateDir, opts.message),
  );
  if (!r.ok) return reportFailure(r, opts);
  const t = r.value;
  const text = t.created ? `Checkpoint ${t.id} (#${t.seq}): ${t.changedFiles.length} file(s) changed against HEAD.` : `Unchanged since checkpoint ${t.id} (#${t.seq}): nothing new recorded.`;
  reportSuccess({ ok: true, ...t }, text, opts);
}

/** The checkpoint written by this process (no daemon answers). */
async function checkpointHere(stateDir: string, message: string | undefined): Promise<Result<Taken>> {
  const project = projectDirOf(stateDir);
  if (!project.ok) return project;
  const [{ writeCheckpoint }, { offlineCheckpointPorts }] = await Promise.all([import('../../supervisor/checkpoints/checkpoint.js'), import('../offline-session-write.js')]);
  const r = await writeCheckpoint(stateDir, project.value, offlineCheckpointPorts(), new Date(), { reason: 'on demand', message });
  if (!r.ok) return r;
  const snap = r.value.checkpoint.snapshot;
  if (snap === null) return fail('failed', `${project.value}: ${NOT_A_REPOSITORY}`);
  return ok({ created: r.value.changed, id: snap.commit.slice(0, 7), seq: snap.seq, commit: snap.commit, tree: snap.tree, changedFiles: r.value.checkpoint.changedFiles });
}

export async function listCheckpointsOf(spec: string, opts: OutputOptions): Promise<void> {
  if (await ranRemotely(spec, opts, (m, remote, session) => m.remoteCheckpoints(remote, session))) return;
  const opened = openSession(spec);
  if (!opened.ok) return reportFailure(opened, opts);
  const r = await sessionCheckpoints(opened.value.stateDir);
  if (!r.ok) return reportFailure(r, opts);
  reportSuccess({ ok: true, checkpoints: r.value }, r.value.length === 0 ? 'No checkpoints yet.' : r.value.map(checkpointRow).join('\n'), opts);
}

/** `ahead`: the work tree's scan begun before this module loaded (scan-ahead.ts); closed here, used or not. */
export async function showChanges(spec: string, opts: ChangesCliOptions, ahead: ScanAhead | null): Promise<void> {
  const opened = openSession(spec);
  if (!opened.ok) {
    await ahead?.close();
    return reportFailure(opened, opts);
  }
  if (opts.stat) {
    const r = await sessionChanges(opened.value.stateDir, opts.since, ahead);
    if (!r.ok) return reportFailure(r, opts);
    return reportSuccess({ ok: true, ...r.value }, statLines(r.value).join('\n'), opts);
  }
  const r = await sessionPatch(opened.value.stateDir, opts.since, ahead);
  if (!r.ok) return reportFailure(r, opts);
  reportSuccess({ ok: true, ...r.value.listing, patch: r.value.patch }, [...statLines(r.value.listing), '', r.value.patch].join('\n'), opts);
}

export async function changesOfRemote(spec: string, opts: ChangesCliOptions): Promise<boolean> {
  return ranRemotely(spec, opts, (m, remote, session) => m.remoteChanges(remote, session, opts.since ?? 'start', opts.stat ?? false));
}

export async function rollBack(spec: string, to: string, opts: RollbackCliOptions): Promise<void> {
  if (await ranRemotely(spec, opts, (m, remote, session) => m.remoteRollback(remote, session, to, opts.files ?? [], opts.dryRun ?? false, opts.yes ?? false))) return;
  const opened = openSession(spec);
  if (!opened.ok) return reportFailure(opened, opts);
  const stateDir = opened.value.stateDir;
  const [{ rollbackSession }, { offlineCheckpointPorts }, { liveState }, { refusedInsideAgent }, { moriHome }] = await Promise.all([
    import('../../supervisor/checkpoints/rollback.js'),
    import('../offline-session-write.js'),
    import('../live-state.js'),
    import('../approver-check.js'),
    import('../../state/mori-home.js'),
  ]);
  const ports = offlineCheckpointPorts();
  const preview = await rollbackSession({ stateDir, to, files: opts.files ?? [], dryRun: true }, ports);
  if (!preview.ok) return reportFailure(preview, opts);
  const changing = preview.value.actions.filter((a) => a.action !== 'skip');
  const head = `Rollback to checkpoint ${preview.value.to.id} (#${preview.value.to.seq}, ${preview.value.to.at}): ${changing.length} file${changing.length === 1 ? '' : 's'}`;
  if (opts.dryRun) return reportSuccess({ ok: true, ...preview.value }, [`${head} would change:`, ...actionLines(preview.value.actions)].join('\n'), opts);
  const live = await liveState();
  if (rollbackNeedsConfirm(live?.sessions.get(opened.value.session.id))) {
    if (!opts.yes) return reportFailure(fail('busy', BUSY_MESSAGE), opts);
    const refused = await refusedInsideAgent(moriHome(), `\`mori rollback ${spec} --yes\` (confirming a rollback while the agent works)`);
    if (refused) return reportFailure(refused, opts);
  }
  if (!opts.json) process.stdout.write(visibleLines([`${head} will change:`, ...actionLines(preview.value.actions), ''].join('\n')));
  const r = await rollbackSession({ stateDir, to, files: opts.files ?? [] }, ports);
  if (!r.ok) return reportFailure(r, opts);
  const undo = r.value.before ? ` Undo: mori rollback ${spec} ${r.value.before.id}` : '';
  reportSuccess({ ok: true, ...r.value }, `Rolled back ${r.value.actions.filter((a) => a.action !== 'skip').length} file(s) to ${r.value.to.id}.${undo}`, opts);
}
