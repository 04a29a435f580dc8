// The checks tab's decisions (DESIGN.md §7): what a listing asks the person to approve, how the
// agent command and the dialog's question read, and each check's shown status. Pure. Runs in the renderer.
import type { ChecksListing, DaemonEvent } from '../../common/ipc.js';
import { ENVIRONMENT, SESSION_FILE } from '../../common/state-files.js';

/** Lines of failing output shown under a check: the end is where the error is. */
const OUTPUT_TAIL_LINES = 12;

/** The last lines of a check's output. */
export const outputTail = (text: string): string => text.trimEnd().split('\n').slice(-OUTPUT_TAIL_LINES).join('\n');

/** Which of the events of the daemon make the checks of `sessionId` read again. */
export function changesChecks(e: DaemonEvent, sessionId: string): boolean {
  return 'sessionId' in e && e.sessionId === sessionId && (e.type === 'verify.started' || e.type === 'verify.finished' || (e.type === 'state.changed' && (e.file === ENVIRONMENT || e.file === SESSION_FILE)));
}

/** What a listing asks the person to approve: the checks' list, the agent command, both or neither. */
export interface PendingTrust {
  checks: boolean;
  agent: NonNullable<ChecksListing['agentCommand']> | null;
}

export function pendingTrust(listing: ChecksListing | null): PendingTrust {
  const agent = listing?.agentCommand ?? null;
  return {
    checks: listing !== null && !listing.trust.trusted && listing.trust.items.length > 0,
    // A command no approval can make run (refused) is not offered: the banner says what to fix.
    agent: agent !== null && !agent.trusted && agent.refused === null ? agent : null,
  };
}

/** The agent command as the person reads it: the shell profile without one runs the login shell. */
export const agentCommandText = (a: { command: string | null }): string => a.command ?? '(none: your login shell)';

export function trustTitle(p: PendingTrust, what: string): string {
  if (p.agent && p.checks) return `Trust the agent command and these ${what}?`;
  return p.agent ? 'Trust the agent command?' : `Trust these ${what}?`;
}

