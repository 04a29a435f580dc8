// The person's approvals (DESIGN.md §7, §11): `$MORI_HOME/trust.json`, never the project. Anything in
// the project (the agent, a cloned repository's `.mori/`) can write there, so nothing written there
// can grant trust; the Mori home is the person's own 0700 dir. An approval is keyed by the state
// dir's real path and what was approved (the checks' command list, or the agent command line), and
// holds the hash of exactly that list. Written atomically, mode 0600, under a short lock. A corrupt
// file grants nothing and is never overwritten. Any Node process.
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import '../../common/zod-english.js';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomicSync } from '../state/atomic-write.js';
import { withLock } from '../state/pid-lock.js';
import { ensureHome } from '../state/registry.js';

export const TRUST_FILE = 'trust.json';

/** What an approval covers: the commands the checks run, or the command that starts the agent. */
export const TrustSubject = z.enum(['checks', 'agent-command']);
export type TrustSubject = z.infer<typeof TrustSubject>;

export const Approval = z.object({
  /** The state dir's real path (symlinks resolved), so two paths to one dir share an approval. */
  stateDir: z.string(),
  subject: TrustSubject,
  hash: z.string(),
  approvedAt: z.string(),
});
export type Approval = z.infer<typeof Approval>;

const TrustFile = z.object({ schemaVersion: z.literal(1), approvals: z.array(Approval) });

export function trustStorePath(home: string): string {
  return path.join(home, TRUST_FILE);
}

/** The key of a state dir: its real path, or its absolute path when it no longer exists. */
export function stateDirKey(stateDir: string): string {
  try {
    return realpathSync(stateDir);
  } catch {
    return path.resolve(stateDir);
  }
}

export function readApprovals(home: string): Result<Approval[]> {
  const file = trustStorePath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok([]);
    return fail('unreadable', `${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing is approved until it can`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail('unreadable', `${file}: not valid JSON (${(err as Error).message}); nothing is approved until it is fixed or removed`);
  }
  const parsed = TrustFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('unreadable', `${file}: ${issue?.path.join('.') || 'top level'}: ${issue?.message}; nothing is approved until it is fixed or removed`);
  }
  return ok(parsed.data.approvals);
}

/** The approval of `subject` for this state dir, or null. A store that cannot be read approves nothing. */
export function findApproval(home: string, stateDir: string, subject: TrustSubject): Result<Approval | null> {
  const all = readApprovals(home);
  if (!all.ok) return all;
  const key = stateDirKey(stateDir);
  return ok(all.value.find((a) => a.stateDir === key && a.subject === subject) ?? null);
}

/** Records that the person approved `hash` for this state dir, replacing its earlier approval of the same subject. */
export async function recordApproval(home: string, stateDir: string, subject: TrustSubject, hash: string, at = new Date()): Promise<Result<Approval>> {
  ensureHome(home);
  const approval: Approval = { stateDir: stateDirKey(stateDir), subject, hash, approvedAt: at.toISOString() };
  return withLock(path.join(home, 'trust.lock'), 'trust approval', () => {
    const current = readApprovals(home);
    if (!current.ok) return current;
    const rest = current.value.filter((a) => !(a.stateDir === approval.stateDir && a.subject === subject));
    writeAtomicSync(trustStorePath(home), JSON.stringify({ schemaVersion: 1, approvals: [...rest, approval] }, null, 2) + '\n', 0o600);
    return ok(approval);
  });
}

/**
 * A renamed session keeps the person's approvals (`from` is the old state dir's key, `to` its new dir);
 * a removed one loses them (`to` null), so a later session of the same name starts unapproved.
 */
export async function moveApprovals(home: string, from: string, to: string | null): Promise<Result<number>> {
  const current = readApprovals(home);
  if (!current.ok) return current;
  if (!current.value.some((a) => a.stateDir === from)) return ok(0);
  const key = to === null ? null : stateDirKey(to);
  return withLock(path.join(home, 'trust.lock'), 'trust approval', () => {
    const all = readApprovals(home);
    if (!all.ok) return all;
    const moved = all.value.filter((a) => a.stateDir === from).length;
    const next = all.value.flatMap((a) => (a.stateDir !== from ? [a] : key === null ? [] : [{ ...a, stateDir: key }]));
    writeAtomicSync(trustStorePath(home), JSON.stringify({ schemaVersion: 1, approvals: next }, null, 2) + '\n', 0o600);
    return ok(moved);
  });
}
