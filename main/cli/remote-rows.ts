// What `mori ls` and `mori status host:session` print of remotes (DESIGN.md §12, sessions on other
// hosts): a `host:session` row per remote session, a row saying a remote is unreachable or speaks
// another protocol version, and one remote session's status from its daemon (the live state, and
// where the agent left off from session_state.md, read through the control API). Runs in the CLI process.
import { PROTOCOL_VERSION, type LiveSession } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { preciseState, profileWords } from '../../common/session-view.js';
import { RemoteClient } from '../remote/remote-client.js';
import type { RemoteListing } from '../remote/remote-sessions.js';
import type { Remote } from '../remote/remotes-store.js';
import { MarkdownDoc } from '../state/markdown-doc.js';
import { parseSessionState } from '../state/session-state.js';
import { visibleText } from '../../common/visible-text.js';
import { SESSION_STATE } from '../../common/state-files.js';

function sessionRow(host: string, s: LiveSession): string {
  return `${host}:${s.name}  ${preciseState(s)}${s.pid !== null ? `, pid ${s.pid}` : ''}  ${s.profile ? profileWords(s.profile, s.handedOver) : '?'}/${s.backend}  ${visibleText(s.projectDir ?? s.stateDir)}`;
}

/** The rows of one remote: its sessions, or why there are none to show. */
export function remoteRows(l: RemoteListing): string[] {
  if (l.status === 'unreachable') return [`${l.name}:  unreachable  ${l.destination}\n   ${visibleText(l.message ?? '')}`];
  if (l.status === 'other-version') return [`${l.name}:  other protocol version (${l.protocol ?? '?'}, this mori ${PROTOCOL_VERSION})  ${l.destination}\n   ${visibleText(l.message ?? '')}`];
  if (l.sessions.length === 0) return [`${l.name}:  no sessions  ${l.destination}`];
  return l.sessions.map((s) => sessionRow(l.name, s));
}

export interface RemoteStatus {
  remote: string;
  session: LiveSession;
  leftOff: { task: string | null; nextSteps: string[]; filesTouched: string[]; lastWorkingState: string | null } | null;
}

/** One remote session as its daemon knows it, with where its agent left off. */
export async function remoteStatus(remote: Remote, ref: string): Promise<Result<{ value: RemoteStatus; text: string }>> {
  const c = await RemoteClient.connect(remote);
  if (!c.ok) return c;
  try {
    const listed = await c.value.request('list', {});
    if (!listed.ok) return listed;
    const s = listed.value.find((x) => x.name === ref || x.id === ref);
    if (!s) return fail('not-found', `${remote.name} has no session "${ref}" (\`mori ls\` lists them)`);
    const read = await c.value.request('state.read', { session: s.id, file: SESSION_STATE });
    const state = read.ok ? parseSessionState(new MarkdownDoc(Buffer.from(read.value.text, 'utf8'))) : null;
    const leftOff = state ? { task: state.task.join(' ') || null, nextSteps: state.nextSteps, filesTouched: state.filesTouched, lastWorkingState: state.lastWorkingState } : null;
    const lines = [sessionRow(remote.name, s), `id: ${s.id}`, `state dir on ${remote.name}: ${visibleText(s.stateDir)}`];
    if (leftOff) {
      if (leftOff.task) lines.push(`task: ${visibleText(leftOff.task)}`);
      if (leftOff.lastWorkingState) lines.push(`last working state: ${visibleText(leftOff.lastWorkingState)}`);
      lines.push(leftOff.nextSteps.length > 0 ? 'next steps:' : 'next steps: -', ...leftOff.nextSteps.map((step, i) => `  ${i + 1}. ${visibleText(step)}`));
      lines.push(`files touched: ${leftOff.filesTouched.length > 0 ? leftOff.filesTouched.map(visibleText).join(', ') : '-'}`);
    } else if (!read.ok) lines.push(`warning: session_state.md on ${remote.name}: ${visibleText(read.message)}`);
    return ok({ value: { remote: remote.name, session: s, leftOff }, text: lines.join('\n') });
  } finally {
    c.value.close();
  }
}
