// What one hook call reports (DESIGN.md §4 "Hooks"): the event (from the spool file's name, which
// Mori's own settings layer chose) and the payload (hostile; HookPayload's few bounded fields) become
// an activity, perhaps the agent's new session id, perhaps a failed turn's raw payload. Each agent's
// own events are read by its hooks capability (main/agents/<name>/hooks.ts); this file holds the
// report's shape, the helpers they share and the call that asks the profile. Reports only: nothing
// here can ask Mori to run, approve or write anything else. Pure.
import type { AgentActivity } from '../../../common/agent-activity.js';
import { HookPayload } from '../../../common/hook-payload.js';
import type { AgentIdForm, AgentProfile } from '../profile.js';

export interface HookReport {
  /** The activity the call says, or null when it says none (SessionEnd, an event Mori ignores). */
  activity: AgentActivity | null;
  /** SessionStart's session id, valid for the profile, with its source (startup, resume, clear, compact). */
  agentSession?: { id: string; source: string };
  /** A turn that failed (claude's StopFailure): its raw payload, for the usage-limit reader. */
  stopFailure?: unknown;
}

export const NONE: HookReport = { activity: null };

/** The payload's fields Mori reads, or {} when it is not an object of that shape (or was too big to read). */
export function fields(payload: unknown): HookPayload {
  const r = HookPayload.safeParse(payload);
  return r.success ? r.data : {};
}

/** SessionStart's id when it has the agent's id form; a forged or malformed id is dropped. */
export function sessionStart(form: AgentIdForm, p: HookPayload): HookReport {
  const id = p.session_id;
  if (id === undefined || !form.pattern.test(id)) return { activity: 'waiting' };
  return { activity: 'waiting', agentSession: { id, source: p.source ?? 'unknown' } };
}

/** What a hook call of `event` with `payload` (null: unread, too big) reports for an agent of `profile`. */
export function hookReport(profile: Pick<AgentProfile, 'hooks'>, event: string, payload: unknown): HookReport {
  return profile.hooks?.report(event, payload) ?? NONE;
}
