// The Changes tab's timeline (DESIGN.md §3, §13): each checkpoint beside the work-log lines of its
// stretch of time — the entries logged since the previous checkpoint's line up to its own
// (`CHECKPOINT <id> - …`), so `SESSION INTERRUPTED - system sleep`, logged as the suspend's snapshot
// is being written, sits next to that snapshot; and the tab's other decisions: the file kept selected,
// a checkpoint's name, what a restore says. Pure, so it is tested without a page. Runs in the
// renderer.
import type { CheckpointInfo, RollbackOutcome } from '../../common/checkpoints.js';
import type { LogEntry } from '../../common/ipc.js';

export interface TimelineItem {
  checkpoint: CheckpointInfo;
  /** Work-log lines of its stretch, oldest first, without the checkpoint's own line (shown on its own). */
  lines: string[];
}

/** Work-log headings are to the minute: an entry after the last checkpoint's line within a minute of it is still its. */
const NEAR_MS = 60_000;
const CHECKPOINT_LINE = /CHECKPOINT ([0-9a-f]{7,40}) /;

const text = (line: string): string => line.replace(/^\s*-\s*/, '').trim();

/**
 * Newest checkpoint first, each with the lines of the entries from just after the previous
 * checkpoint's entry up to its own; entries after the last checkpoint's entry go to it when they are
 * within a minute of it, else nowhere (they belong to the next one).
 */
export function checkpointTimeline(checkpoints: readonly CheckpointInfo[], entries: readonly LogEntry[]): TimelineItem[] {
  const byId = new Map(checkpoints.map((c) => [c.id, c]));
  const lines = new Map<number, string[]>(checkpoints.map((c) => [c.seq, []]));
  let pending: LogEntry[] = [];
  let last: CheckpointInfo | undefined;
  for (const e of [...entries].sort((a, b) => a.index - b.index)) {
    const id = e.lines.map((l) => CHECKPOINT_LINE.exec(l)?.[1]).find((x) => x !== undefined);
    const owner = id === undefined ? undefined : byId.get(id.slice(0, 7));
    if (owner === undefined) {
      if (id === undefined) pending.push(e);
      continue;
    }
    const own = `CHECKPOINT ${owner.id} `;
    const mine = [...pending.flatMap((p) => p.lines), ...e.lines].map(text).filter((l) => l !== '' && !l.startsWith(own));
    lines.get(owner.seq)?.push(...mine);
    pending = [];
    last = owner;
  }
  if (last !== undefined) {
    const at = Date.parse(last.at);
    const near = pending.filter((e) => e.at !== null && Math.abs(Date.parse(e.at) - at) <= NEAR_MS);
    lines.get(last.seq)?.push(...near.flatMap((e) => e.lines).map(text).filter((l) => l !== ''));
  }
  return [...checkpoints].sort((a, b) => b.seq - a.seq).map((checkpoint) => ({ checkpoint, lines: [...new Set(lines.get(checkpoint.seq))] }));
}

/** `+3 −1`, or `binary`: a file's line counts as the list shows them. */
export function lineCounts(f: { binary: boolean; added: number | null; deleted: number | null }): string {
  return f.binary ? 'binary' : `+${f.added ?? 0} −${f.deleted ?? 0}`;
}

/** How the tab names a checkpoint. */
export const checkpointLabel = (c: CheckpointInfo): string => `checkpoint #${c.seq}`;

/** The file selected once the changed files are read: the one selected if it is still among them, else the first. */
export function stillSelected(files: readonly { path: string }[], selected: string | null): string | null {
  return files.some((f) => f.path === selected) ? selected : (files[0]?.path ?? null);
}

/** What the status line says once a restore ran. */
export function restoredWords(r: RollbackOutcome): string {
  const n = r.actions.filter((a) => a.action !== 'skip').length;
  return `Restored ${n} file${n === 1 ? '' : 's'} to ${checkpointLabel(r.to)}${r.before ? `; checkpoint #${r.before.seq} undoes it` : ''}.`;
}
