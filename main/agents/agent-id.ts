// The form of an agent's own session id, per profile (DESIGN.md §5). session.json stores the id and
// anything in the project can write that file, while a relaunch puts the id on the agent's command
// line (and a custom template may hand it to a shell): so an id is checked against its profile's form
// before any command is built from it. Pure.
import { fail, ok, type Result } from '../../common/result.js';
import type { ProfileName } from '../../common/session.js';
import { UUID_PATTERN } from './launch-helpers.js';
import { OPENCODE_ID_PATTERN } from './opencode/sessions.js';

/**
 * Ids of the shell, custom and other profiles: letters, digits, `.`, `_`, `-` — no shell or tmux
 * metacharacter, no space, no path separator, no leading-dash problem worth a quote. 128 bounds
 * a name any tool would choose (a UUID is 36) while leaving room for long slugs.
 */
export const PLAIN_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Profiles whose agents name sessions by UUID: claude and gemini take one Mori picks, codex picks its own. */
const UUID_PROFILES: ReadonlySet<ProfileName> = new Set(['claude', 'codex', 'gemini']);

/** A forged id can be any length: messages show this much of it. */
const SHOWN_ID_CHARS = 200;

export interface AgentIdForm {
  pattern: RegExp;
  /** The form in words, for messages. */
  words: string;
}

export function agentIdForm(profile: ProfileName): AgentIdForm {
  if (profile === 'opencode') return { pattern: OPENCODE_ID_PATTERN, words: '"ses_" and 26 letters or digits' };
  return UUID_PROFILES.has(profile)
    ? { pattern: UUID_PATTERN, words: 'a UUID (8-4-4-4-12 hex digits)' }
    : { pattern: PLAIN_ID_PATTERN, words: '1-128 letters, digits, ".", "_" or "-"' };
}

export const isAgentId = (profile: ProfileName, id: string): boolean => agentIdForm(profile).pattern.test(id);

/** The id when it has its profile's form (or is null); else a failure naming `where` (the file and field). */
export function checkAgentId(profile: ProfileName, id: string | null, where: string): Result<string | null> {
  if (id === null || isAgentId(profile, id)) return ok(id);
  return fail('unreadable', `${where}: ${JSON.stringify(id.length > SHOWN_ID_CHARS ? `${id.slice(0, SHOWN_ID_CHARS)}…` : id)} is not a ${profile} session id (${agentIdForm(profile).words}); refusing to put it on a command line`);
}
