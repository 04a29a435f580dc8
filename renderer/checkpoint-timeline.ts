// The Changes tab's timeline (DESIGN.md §3, §13): each checkpoint beside the work-log lines written
// when it was taken — the entry naming it (`CHECKPOINT <id> - …`) and the other entries of its time
// (so `SESSION INTERRUPTED - system sleep` sits next to the snapshot the suspend took). Pure, so it
// is tested without a page. Runs in the renderer.
import type { CheckpointInfo } from '../common/checkpoints.js';
import type { LogEntry } from '../common/ipc.js';

export interface TimelineItem {
  checkpoint: CheckpointInfo;
  /** Work-log lines of its time, oldest first, without the checkpoint's own line (shown on its own). */
  lines: string[];
}

/** Work-log headings are to the minute: an entry's time is the minute it names. */
const MINUTE_MS = 60_000;
/** An entry further than this from every checkpoint stands alone (it is not shown in the timeline). */
const NEAR_MS = MINUTE_MS;
const CHECKPOINT_LINE = /CHECKPOINT ([0-9a-f]{7,40}) /;

/** How far checkpoint time `t` is from the minute starting at `m` (0 inside it). */
const distance = (t: number, m: number): number => (t < m ? m - t : t >= m + MINUTE_MS ? t - (m + MINUTE_MS) + 1 : 0);

/**
 * Newest checkpoint first, each with the lines of the entry that names it and of every other entry
 * whose minute is nearest to it (ties go to the later checkpoint: a log line follows its snapshot).
 */
export function checkpointTimeline(checkpoints: readonly CheckpointInfo[], entries: readonly LogEntry[]): TimelineItem[] {
  const byId = new Map(checkpoints.map((c) => [c.id, c]));
  const lines = new Map<number, string[]>(checkpoints.map((c) => [c.seq, []]));
  for (const e of entries) {
    const named = e.lines.map((l) => CHECKPOINT_LINE.exec(l)?.[1]).find((id) => id !== undefined);
    let owner: CheckpointInfo | undefined = named !== undefined ? byId.get(named.slice(0, 7)) : undefined;
    const m = e.at === null ? NaN : Date.parse(e.at);
    if (owner === undefined && named === undefined && !Number.isNaN(m)) {
      let best = NEAR_MS + 1;
      for (const c of checkpoints) {
        const d = distance(Date.parse(c.at), m);
        if (d < best || (d === best && owner !== undefined && c.seq > owner.seq)) [best, owner] = [d, c];
      }
    }
    if (owner === undefined) continue;
    const own = `CHECKPOINT ${owner.id} `;
    for (const l of e.lines) {
      const text = l.replace(/^\s*-\s*/, '').trim();
      if (text !== '' && !text.startsWith(own)) lines.get(owner.seq)?.push(text);
    }
  }
  return [...checkpoints].sort((a, b) => b.seq - a.seq).map((checkpoint) => ({ checkpoint, lines: [...new Set(lines.get(checkpoint.seq))] }));
}

/** `+3 −1`, or `binary`: a file's line counts as the list shows them. */
export function lineCounts(f: { binary: boolean; added: number | null; deleted: number | null }): string {
  return f.binary ? 'binary' : `+${f.added ?? 0} −${f.deleted ?? 0}`;
}
