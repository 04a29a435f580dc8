// The Changes tab's timeline: a checkpoint gets the entries logged since the previous checkpoint's
// line up to its own (an interruption line beside the snapshot taken then), never another
// checkpoint's line; entries after the last checkpoint's line go to it only within a minute.
import { describe, expect, it } from 'vitest';
import type { CheckpointInfo } from '../../../common/checkpoints.js';
import type { LogEntry } from '../../../common/ipc.js';
import { checkpointTimeline, lineCounts } from '../../../renderer/changes/checkpoint-timeline.js';

const cp = (seq: number, id: string, at: string): CheckpointInfo => ({ seq, commit: `${id}${'0'.repeat(33)}`, id, tree: 't', at, reason: 'r', files: 1, logLine: `CHECKPOINT ${id} - x`, message: '' });
let index = 0;
const entry = (at: string, ...lines: string[]): LogEntry => ({ index: index++, heading: at, at, lines: lines.map((l) => `- ${l}`), archived: false });

describe('checkpointTimeline', () => {
  it('puts each entry beside the checkpoint it names or the nearest one in time, newest first', () => {
    const cps = [cp(1, 'aaaaaaa', '2026-11-30T15:00:10.000Z'), cp(2, 'bbbbbbb', '2026-11-30T15:00:40.000Z'), cp(3, 'ccccccc', '2026-11-30T22:13:59.500Z')];
    const entries = [
      entry('2026-11-30T15:00:00.000Z', 'SESSION CREATED - agent claude', 'SESSION STARTED - agent claude'),
      entry('2026-11-30T15:00:00.000Z', 'CHECKPOINT aaaaaaa - 0 files changed'),
      entry('2026-11-30T15:00:00.000Z', 'the agent wrote a note'),
      entry('2026-11-30T15:00:00.000Z', 'CHECKPOINT bbbbbbb - 2 files changed: a.txt, b.txt'),
      // Logged as the suspend's snapshot is being written, in the next minute; its line follows.
      entry('2026-11-30T22:14:00.000Z', 'SESSION INTERRUPTED - system sleep'),
      entry('2026-11-30T22:14:00.000Z', 'CHECKPOINT ccccccc - 1 file changed: a.txt'),
      entry('2026-11-30T22:14:00.000Z', 'SESSION RESUMED - slept 2m'),
      entry('2026-12-01T09:00:00.000Z', 'far after every checkpoint'),
    ];
    const t = checkpointTimeline(cps, entries);
    expect(t.map((i) => [i.checkpoint.seq, i.lines])).toEqual([
      [3, ['SESSION INTERRUPTED - system sleep', 'SESSION RESUMED - slept 2m']],
      [2, ['the agent wrote a note']],
      [1, ['SESSION CREATED - agent claude', 'SESSION STARTED - agent claude']],
    ]);
  });

  it('says binary or the line counts', () => {
    expect(lineCounts({ binary: false, added: 3, deleted: 1 })).toBe('+3 −1');
    expect(lineCounts({ binary: true, added: null, deleted: null })).toBe('binary');
  });
});
