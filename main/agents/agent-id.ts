// The form of an agent's own session id, per profile (DESIGN.md §5): each profile says its form
// (`idForm`, in its folder), others take plain ids. session.json stores the id and anything in the
// project can write that file, while a relaunch puts the id on the agent's command line (and a custom
// template may hand it to a shell): so an id is checked against its profile's form before any
// command is built from it. Pure.
import { fail, ok, type Result } from '../../common/result.js';
import type { ProfileName } from '../../common/session.js';
import type { AgentIdForm } from './profile.js';
import { PROFILES } from './profiles.js';
import { PLAIN_ID_FORM } from './launch-helpers.js';

export type { AgentIdForm } from './profile.js';

/** A forged id can be any length: messages show this much of it. */
const SHOWN_ID_CHARS = 200;

export function agentIdForm(profile: ProfileName): AgentIdForm {
  return (PROFILES as Partial<Record<string, { idForm?: AgentIdForm }>>)[profile]?.idForm ?? PLAIN_ID_FORM;
}

export const isAgentId = (profile: ProfileName, id: string): boolean => agentIdForm(profile).pattern.test(id);

/** The id when it has its profile's form (or is null); else a failure naming `where` (the file and field). */
export function checkAgentId(profile: ProfileName, id: string | null, where: string): Result<string | null> {
  if (id === null || isAgentId(profile, id)) return ok(id);
  return fail('unreadable', `${where}: ${JSON.stringify(id.length > SHOWN_ID_CHARS ? `${id.slice(0, SHOWN_ID_CHARS)}…` : id)} is not a ${profile} session id (${agentIdForm(profile).words}); refusing to put it on a command line`);
}
