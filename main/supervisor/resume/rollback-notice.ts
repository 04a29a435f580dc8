// The note that tells an agent the person rolled files back (DESIGN.md §4): rollback.ts leaves it in
// session.json, the next resume prompt or nudge carries it, and it is cleared once one did (the
// change handed to the SessionStore). Read from the file each time (a rollback is often made by
// `mori rollback`, another process). Runs in the supervisor's process and in `mori prompt`.
import type { SessionRecord } from '../../../common/session.js';
import type { AgentProfile } from '../../agents/profile.js';
import { readSessionFile, type SessionChange } from '../../state/session-file.js';

export type RollbackNotice = NonNullable<SessionRecord['rollbackNotice']>;

/** Files named in the note; the rest are counted. */
const NAMED_FILES = 10;

export function rollbackNoticeText(n: RollbackNotice): string {
  const names = n.files.slice(0, NAMED_FILES).join(', ') + (n.files.length > NAMED_FILES ? `, and ${n.files.length - NAMED_FILES} more` : '');
  return `Files were rolled back to checkpoint ${n.checkpoint} by the person (${n.at}): ${names || 'no files'}. Re-read them before editing; do not redo what was undone unless asked.`;
}

export function pendingRollbackNotice(stateDir: string): RollbackNotice | null {
  const s = readSessionFile(stateDir);
  return s.ok ? s.value.rollbackNotice : null;
}

/** The change that clears the note once delivered, unless a newer rollback left another meanwhile. */
export function rollbackNoticeCleared(delivered: RollbackNotice): SessionChange {
  return (s) => (s.rollbackNotice?.at === delivered.at ? { ...s, rollbackNotice: null } : s);
}

/**
 * The nudge typed into a live agent (a resume's, an API error's): its profile's, with the rollback
 * note when one is pending (to be cleared once the agent took it); null when the profile types none.
 */
export function nudgeWithNotice(rt: { profile: Pick<AgentProfile, 'nudge'>; projectDir: string; name: string; stateDir: string }): { text: string; notice: RollbackNotice | null } | null {
  const plain = rt.profile.nudge({ projectDir: rt.projectDir, name: rt.name });
  if (plain === null) return null;
  const notice = pendingRollbackNotice(rt.stateDir);
  return { text: notice !== null ? `${plain} ${rollbackNoticeText(notice)}` : plain, notice };
}
