// What the report of the time away (common/away-report.ts) is built from, gathered for one session:
// session.json's intent, the work log and session_state.md (the agent can write both: read through
// main/os/agent-file.ts, capped), the checkpoints and the files changed since the one the period
// starts from (git, as `mori checkpoints` and `mori changes --stat`). Usage comes from the caller
// (the daemon's usage book). Nothing new is collected. Any Node process (the CLI, the daemon).
import path from 'node:path';
import type { AwaySessionInput } from '../../common/away-report.js';
import type { CheckpointInfo } from '../../common/checkpoints.js';
import { SESSION_STATE, WORK_LOG } from '../../common/state-files.js';
import { isAgentFileError, readAgentFile, readAgentFileTail } from '../os/agent-file.js';
import { MarkdownDoc } from '../state/markdown-doc.js';
import { readSessionFile } from '../state/session-file.js';
import { parseSessionState } from '../state/session-state.js';
import { parseEntries } from '../state/work-log.js';
import { sessionChanges, sessionCheckpoints } from './checkpoints/changes.js';

/** The work log's end read: past its 256 KiB budget older entries are archived, so this holds all of it with room. */
const WORK_LOG_READ_BYTES = 1024 * 1024;
/** session_state.md read whole up to this (a state file is a page; the resume prompt refuses far less). */
const STATE_READ_BYTES = 1024 * 1024;

async function logEntries(stateDir: string): Promise<AwaySessionInput['entries']> {
  const read = await readAgentFileTail(path.join(stateDir, WORK_LOG), WORK_LOG_READ_BYTES);
  if (isAgentFileError(read)) return [];
  let text = read.bytes.toString('utf8');
  // A tail cut inside an entry begins at its next heading.
  if (read.from > 0) text = text.slice(Math.max(0, text.search(/(^|\n)## /)));
  return parseEntries(Buffer.from(text, 'utf8')).map((e) => ({ atMs: e.at?.getTime() ?? null, lines: e.lines }));
}

async function taskNow(stateDir: string): Promise<AwaySessionInput['task']> {
  const file = path.join(stateDir, SESSION_STATE);
  const read = await readAgentFile(file, STATE_READ_BYTES);
  if (isAgentFileError(read)) return { problem: read.message };
  const s = parseSessionState(new MarkdownDoc(read));
  return { task: s.task, nextSteps: s.nextSteps, lastWorkingState: s.lastWorkingState };
}

/** The checkpoint the period's changes are counted from: the last before it, else its first. */
function startOf(cps: readonly CheckpointInfo[], sinceMs: number): CheckpointInfo | undefined {
  return cps.filter((c) => Date.parse(c.at) < sinceMs).at(-1) ?? cps.find((c) => Date.parse(c.at) >= sinceMs);
}

/** One session's inputs; `usage` as the daemon's book read it (or why not). */
export async function awayInputs(stateDir: string, sinceMs: number, usage: AwaySessionInput['usage']): Promise<AwaySessionInput> {
  const record = readSessionFile(stateDir);
  const [entries, task, listed] = await Promise.all([logEntries(stateDir), taskNow(stateDir), record.ok ? sessionCheckpoints(stateDir) : null]);
  const cps = listed?.ok ? listed.value : [];
  const start = startOf(cps, sinceMs);
  let changes: AwaySessionInput['changes'] = listed !== null && !listed.ok ? { problem: listed.message } : null;
  if (start !== undefined) {
    const r = await sessionChanges(stateDir, String(start.seq));
    changes = r.ok ? { sinceSeq: start.seq, files: r.value.files.map((f) => ({ path: f.path, kind: f.kind })) } : { problem: r.message };
  }
  const base = record.ok
    ? { id: record.value.id, name: record.value.name, agent: record.value.agent.profile, intent: record.value.intent }
    : { id: stateDir, name: path.basename(stateDir), agent: '?', intent: { kind: 'attention', reason: `session.json unreadable: ${record.message}` } };
  return {
    ...base,
    entries,
    checkpoints: cps.map((c) => ({ seq: c.seq, id: c.id, atMs: Date.parse(c.at), reason: c.reason, files: c.files })),
    changes,
    usage,
    task,
  };
}
