// Checkpoints, changes and rollback as the control API and `mori … --json` carry them (DESIGN.md §3,
// §4, §12): a checkpoint as listed, a file changed since one, a file's diff, a rollback's plan and
// outcome. Pure TypeScript, shared by every process (the window's Changes view reads these shapes).
// zod/mini: built when the control API's schemas load, in every client, and cheaper to build.
import * as z from 'zod/mini';
import './zod-english.js';

/** `start` (the session's first checkpoint), `last`, a number (`3`, `#3`) or a commit id prefix (`3f2a9c1`). */
export const CheckpointSpec = z.string().check(z.minLength(1), z.maxLength(64));

export const CheckpointInfo = z.object({
  seq: z.int(),
  /** The snapshot commit (refs/mori/<session id>/cp/<seq>). */
  commit: z.string(),
  /** Its short id, as the work log names it. */
  id: z.string(),
  tree: z.string(),
  at: z.string(),
  reason: z.string(),
  /** Files changed against HEAD when it was taken. */
  files: z.int(),
  /** The work-log line logged with it. */
  logLine: z.string(),
  message: z.string(),
});
export type CheckpointInfo = z.infer<typeof CheckpointInfo>;

export const FileChangeInfo = z.object({
  path: z.string(),
  kind: z.enum(['added', 'modified', 'deleted', 'type-changed']),
  /** Null for a binary file. */
  added: z.nullable(z.int()),
  deleted: z.nullable(z.int()),
  binary: z.boolean(),
  oldMode: z.string(),
  newMode: z.string(),
});
export type FileChangeInfo = z.infer<typeof FileChangeInfo>;

export const ChangesListing = z.object({
  since: CheckpointInfo,
  files: z.array(FileChangeInfo),
  added: z.int(),
  deleted: z.int(),
});
export type ChangesListing = z.infer<typeof ChangesListing>;

/** One file's diff: its unified patch and, for text within the size limit, both sides. */
export const FileDiff = z.extend(FileChangeInfo, {
  patch: z.string(),
  /** The text at the checkpoint; null when absent, binary or too big. */
  before: z.nullable(z.string()),
  /** The text in the work tree now; null when absent, binary or too big. */
  after: z.nullable(z.string()),
});
export type FileDiff = z.infer<typeof FileDiff>;

export const RollbackAction = z.object({
  path: z.string(),
  /** restore: write the checkpoint's version; delete: added since, not ignored; skip: left alone (why says why). */
  action: z.enum(['restore', 'delete', 'skip']),
  why: z.optional(z.string()),
});
export type RollbackAction = z.infer<typeof RollbackAction>;

export const RollbackOutcome = z.object({
  to: CheckpointInfo,
  /** The checkpoint of the state before the rollback (roll back to it to undo); null for a dry run. */
  before: z.nullable(CheckpointInfo),
  actions: z.array(RollbackAction),
  dryRun: z.boolean(),
});
export type RollbackOutcome = z.infer<typeof RollbackOutcome>;

export { BUSY_MESSAGE, rollbackNeedsConfirm } from './rollback-confirm.js';
