// Gathers what the resume prompt is built from — session_state.md, the work log's tail, git status,
// the last verification — for one state dir. The effects half of resume-prompt.ts. Any Node process;
// the supervisor uses the asynchronous one, whose git status never blocks its event loop.
import path from 'node:path';
import type { SessionRecord } from '../../../common/session.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { gitChangedFiles, gitStateAsync } from '../../git/git-info.js';
import { MarkdownDoc } from '../../state/markdown-doc.js';
import { projectDirOf } from '../../state/project-dir.js';
import { parseSessionState } from '../../state/session-state.js';
import { readTailEntries } from '../../state/work-log.js';
import { interruptionFor } from './interrupt-words.js';
import type { Interruption, ResumePromptInput } from './resume-prompt.js';
import { readRegularFileSync } from '../../state/state-file-guard.js';
import { pendingRollbackNotice, rollbackNoticeText } from './rollback-notice.js';
import { SESSION_STATE } from '../../../common/state-files.js';

/** The rollback note from session.json as it is now (the `session` given may predate the rollback). */
function rollbackNote(stateDir: string): string | null {
  const n = pendingRollbackNotice(stateDir);
  return n === null ? null : rollbackNoticeText(n);
}

/** The last few entries are what the agent "already tried"; older ones are in the file. */
const RECENT_LOG_ENTRIES = 5;

/** For one-shot callers (`mori prompt`): git status runs synchronously. */
export function gatherResumeInputs(
  stateDir: string,
  session: SessionRecord,
  interruption: Interruption | null = interruptionOf(session),
): Result<ResumePromptInput> {
  // The project where the state dir lies: session.json's projectDir could name any dir.
  const project = projectDirOf(stateDir);
  return gatherWith(stateDir, session, interruption, project.ok ? gitChangedFiles(project.value) : []);
}

/** For the supervisor: git status runs as a child process the event loop does not wait on. */
export async function gatherResumeInputsAsync(
  stateDir: string,
  session: SessionRecord,
  interruption: Interruption | null = interruptionOf(session),
): Promise<Result<ResumePromptInput>> {
  const project = projectDirOf(stateDir);
  return gatherWith(stateDir, session, interruption, project.ok ? (await gitStateAsync(project.value)).changedFiles : []);
}

function gatherWith(stateDir: string, session: SessionRecord, interruption: Interruption | null, gitChanged: string[]): Result<ResumePromptInput> {
  const file = path.join(stateDir, SESSION_STATE);
  let doc: MarkdownDoc;
  try {
    doc = new MarkdownDoc(readRegularFileSync(file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return fail('unreadable', `${file}: cannot be read (${code ?? (err as Error).message})`);
    doc = MarkdownDoc.fromString('');
  }
  return ok({
    sessionName: session.name,
    stateDir,
    state: parseSessionState(doc),
    recentLog: readTailEntries(stateDir, RECENT_LOG_ENTRIES),
    gitChanged,
    interruption,
    verification: session.lastVerification?.results ?? null,
    rollback: rollbackNote(stateDir),
  });
}

/** The stored interruption, if the session is interrupted (how long is unknown from the file alone). */
function interruptionOf(session: SessionRecord): Interruption | null {
  return session.intent.kind === 'interrupted' ? interruptionFor(session.intent.reason, null) : null;
}
