// The `mori` commands that read or add to a remote session's files, for `host:session` (DESIGN.md §12,
// sessions on other hosts): `log`, `checks`, `verify`, `checkpoint`, `checkpoints`, `changes` and
// `rollback` go to
// that host's daemon over ssh and its `mori bridge`, which resolves the session as typed there and
// works on that host's files; the text printed is the local command's. Approvals (`trust`, a
// confirmed rollback) are the person's on that host, and the bridge refuses them. Runs in the CLI
// process, loaded only for a remote reference.
import * as z from 'zod/mini';
import '../../common/zod-english.js';
import type { CheckpointInfo, ChangesListing } from '../../common/checkpoints.js';
import type { ChecksListing, IpcMethod, IpcParams, IpcResult, LogEntry } from '../../common/ipc.js';
import { CheckResultRecord } from '../../common/session.js';
import { fail, ok, type Result } from '../../common/result.js';
import { RemoteClient } from '../remote/remote-client.js';
import type { Remote } from '../remote/remotes-store.js';
import { actionLines, checkpointRow, statLines } from './checkpoint-text.js';

/** What a remote command prints: its value for --json, its text otherwise, and whether it succeeded (verify). */
export interface RemoteOutcome {
  value: Record<string, unknown>;
  text: string;
  passed?: boolean;
}

/** One request to `remote`'s daemon on a connection of its own, closed after. */
async function ask<M extends IpcMethod>(remote: Remote, method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
  const c = await RemoteClient.connect(remote);
  if (!c.ok) return c;
  try {
    return await c.value.request(method, params);
  } finally {
    c.value.close();
  }
}

const on = (remote: Remote, session: string): string => `${remote.name}:${session}`;

export async function remoteLog(remote: Remote, session: string, text: string): Promise<Result<RemoteOutcome>> {
  const r = await ask(remote, 'log.append', { session, text });
  if (!r.ok) return r;
  const e: LogEntry = r.value;
  return ok({ value: { ok: true, remote: remote.name, at: e.at, heading: e.heading }, text: '' });
}

function checksText(name: string, l: ChecksListing): string {
  const out = l.checks.length === 0 ? [`No checks derived for "${name}".`] : [`Checks of "${name}":`, ...l.checks.map((c) => `  ${c.kind}  ${c.target}  ${c.source.file}:${c.source.line}${c.label ? ` (${c.label})` : ''}${c.needsTrust ? (c.trusted ? '  trusted' : '  needs trust') : ''}`)];
  if (l.services.length > 0) out.push('', 'Services:', ...l.services.map((s) => `  ${s.name}: ${s.start ? `start: \`${s.start}\`` : 'no start: command'}; checks: ${s.checkIds.join(', ') || 'none'}`));
  const t = l.trust;
  if (t.items.length > 0 && !t.trusted) out.push('', `Trust: ${t.items.length} item${t.items.length === 1 ? '' : 's'} ${t.changed ? 'CHANGED since they were approved' : 'NOT approved'}; approve them on ${name.split(':')[0] ?? 'that host'} (\`mori trust\` there).`);
  for (const u of l.unparsed) out.push(`${u.severity === 'malformed' ? 'malformed' : 'not a check'}: ${u.source.file}:${u.source.line}  ${u.text} (${u.reason})`);
  return out.join('\n');
}

export async function remoteChecks(remote: Remote, session: string): Promise<Result<RemoteOutcome>> {
  const r = await ask(remote, 'checks.list', { session });
  return r.ok ? ok({ value: { ok: true, remote: remote.name, ...r.value }, text: checksText(on(remote, session), r.value) }) : r;
}

/** What `checks.verify` answers, as far as the text needs it: another host's answer is checked like any input. */
const VerifyValue = z.object({ ok: z.boolean(), summary: z.object({ text: z.string() }), results: z.array(CheckResultRecord) });

export async function remoteVerify(remote: Remote, session: string, restartServices: boolean): Promise<Result<RemoteOutcome>> {
  const r = await ask(remote, 'checks.verify', { session, restartServices });
  if (!r.ok) return r;
  const v = VerifyValue.safeParse(r.value);
  if (!v.success) return fail('failed', `${remote.name}: its verification's answer does not parse (${v.error.issues[0]?.message ?? 'invalid'})`);
  const passed = v.data.ok;
  const rows = v.data.results.map((x) => `  ${x.status.toUpperCase()}  ${x.kind}  ${x.target}  ${x.durationMs}ms  ${x.detail.split('\n')[0] ?? ''}`.trimEnd());
  return ok({ value: { ...r.value, ok: passed, remote: remote.name }, text: [`${on(remote, session)}: ${v.data.summary.text}`, ...rows].join('\n'), passed });
}

export async function remoteCheckpoint(remote: Remote, session: string, message: string | undefined): Promise<Result<RemoteOutcome>> {
  const r = await ask(remote, 'checkpoint.take', { session, ...(message !== undefined ? { message } : {}) });
  if (!r.ok) return r;
  const c: CheckpointInfo = r.value.checkpoint;
  const text = r.value.created ? `Checkpoint ${c.id} (#${c.seq}) on ${remote.name}: ${c.files} file(s) changed against HEAD.` : `Unchanged since checkpoint ${c.id} (#${c.seq}) on ${remote.name}: nothing new recorded.`;
  return ok({ value: { ok: true, remote: remote.name, created: r.value.created, ...c }, text });
}

export async function remoteCheckpoints(remote: Remote, session: string): Promise<Result<RemoteOutcome>> {
  const r = await ask(remote, 'checkpoints.list', { session });
  if (!r.ok) return r;
  const list = r.value.checkpoints;
  return ok({ value: { ok: true, remote: remote.name, checkpoints: list }, text: list.length === 0 ? 'No checkpoints yet.' : list.map(checkpointRow).join('\n') });
}

export async function remoteChanges(remote: Remote, session: string, since: string, stat: boolean): Promise<Result<RemoteOutcome>> {
  const listed = await ask(remote, 'changes.list', { session, since });
  if (!listed.ok) return listed;
  const l: ChangesListing = listed.value;
  if (stat) return ok({ value: { ok: true, remote: remote.name, ...l }, text: statLines(l).join('\n') });
  const diff = l.files.length === 0 ? null : await ask(remote, 'changes.diff', { session, since, paths: [] });
  if (diff && !diff.ok) return diff;
  const patch = diff ? diff.value.files.map((f) => f.patch).join('') : '';
  return ok({ value: { ok: true, remote: remote.name, ...l, patch }, text: [...statLines(l), '', patch].join('\n') });
}

/**
 * Files put back as a checkpoint on `remote` holds them, after the daemon there checkpoints the
 * current state; the files it will change are listed first. While the agent there works the daemon
 * answers `busy`; going ahead anyway (`--yes`) is an approval, which box's bridge refuses.
 */
export async function remoteRollback(remote: Remote, session: string, to: string, files: string[], dryRun: boolean, yes: boolean): Promise<Result<RemoteOutcome>> {
  const r = await ask(remote, 'rollback', { session, to, files, dryRun, confirm: yes });
  if (!r.ok) return r;
  const v = r.value;
  const changing = v.actions.filter((a) => a.action !== 'skip').length;
  const head = `Rollback to checkpoint ${v.to.id} (#${v.to.seq}, ${v.to.at}) on ${remote.name}: ${changing} file${changing === 1 ? '' : 's'}`;
  const undo = v.before ? ` Undo: mori rollback ${on(remote, session)} ${v.before.id}` : '';
  const text = v.dryRun ? [`${head} would change:`, ...actionLines(v.actions)].join('\n') : [`${head} changed:`, ...actionLines(v.actions), `Rolled back ${changing} file(s) to ${v.to.id}.${undo}`].join('\n');
  return ok({ value: { ok: true, remote: remote.name, ...v }, text });
}
