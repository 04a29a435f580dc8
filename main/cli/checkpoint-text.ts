// How the `mori` command prints checkpoints and a change listing (DESIGN.md §9), for this host's
// sessions and a remote's alike, each moment as the window says it (common/time-words.ts); paths, messages and log lines are the project's, shown by
// visibleText. Runs in the CLI process.
import type { ChangesListing, CheckpointInfo, RollbackAction } from '../../common/checkpoints.js';
import { momentText } from '../../common/time-words.js';
import { visibleText } from '../../common/visible-text.js';

export function checkpointRow(c: CheckpointInfo, nowMs = Date.now()): string {
  return `#${c.seq}  ${c.id}  ${momentText(c.at, nowMs)}  ${c.files} file${c.files === 1 ? '' : 's'}  ${visibleText(c.reason)}${c.message ? ` "${visibleText(c.message)}"` : ''}\n      ${visibleText(c.logLine)}`;
}

export function statLines(l: ChangesListing, nowMs = Date.now()): string[] {
  const lines = l.files.map((f) => `  ${f.kind.padEnd(12)} ${f.binary ? 'binary' : `+${f.added ?? 0} -${f.deleted ?? 0}`.padEnd(12)} ${visibleText(f.path)}`);
  return [`Since checkpoint ${l.since.id} (#${l.since.seq}, ${momentText(l.since.at, nowMs)}): ${l.files.length} file${l.files.length === 1 ? '' : 's'} changed, +${l.added} -${l.deleted}`, ...lines];
}

export function actionLines(actions: readonly RollbackAction[]): string[] {
  return actions.map((a) => `  ${a.action.padEnd(8)} ${visibleText(a.path)}${a.why ? ` (${visibleText(a.why)})` : ''}`);
}
