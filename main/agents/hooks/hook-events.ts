// What one hook call reports (DESIGN.md §4 "Hooks"), per agent: the event (from the spool file's
// name, which Mori's own settings layer chose) and the payload (hostile; HookPayload's few bounded
// fields) become an activity, perhaps the agent's new session id, perhaps a failed turn's raw
// payload. Reports only: nothing here can ask Mori to run, approve or write anything else. Pure.
import type { AgentActivity } from '../../../common/agent-activity.js';
import { HookPayload } from '../../../common/hook-payload.js';
import type { ProfileName } from '../../../common/session.js';
import { isAgentId } from '../agent-id.js';

export interface HookReport {
  /** The activity the call says, or null when it says none (SessionEnd, an event Mori ignores). */
  activity: AgentActivity | null;
  /** SessionStart's session id, valid for the profile, with its source (startup, resume, clear, compact). */
  agentSession?: { id: string; source: string };
  /** A turn that failed (claude's StopFailure): its raw payload, for the usage-limit reader. */
  stopFailure?: unknown;
}

const NONE: HookReport = { activity: null };

/** Claude's Notification types that mean a person must answer. */
const ASKING_NOTIFICATIONS = new Set(['permission_prompt', 'elicitation_dialog']);

/** The payload's fields Mori reads, or {} when it is not an object of that shape (or was too big to read). */
function fields(payload: unknown): HookPayload {
  const r = HookPayload.safeParse(payload);
  return r.success ? r.data : {};
}

/** SessionStart's id when it has the profile's form; a forged or malformed id is dropped. */
function sessionStart(profile: ProfileName, p: HookPayload): HookReport {
  const id = p.session_id;
  if (id === undefined || !isAgentId(profile, id)) return { activity: 'waiting' };
  return { activity: 'waiting', agentSession: { id, source: p.source ?? 'unknown' } };
}

/** Claude Code 2.1.332's hook events. */
function claudeReport(event: string, payload: unknown): HookReport {
  const p = fields(payload);
  switch (event) {
    case 'UserPromptSubmit':
    case 'PreToolUse':
      return { activity: 'working' };
    case 'PermissionRequest':
      return { activity: 'needs-input' };
    case 'Notification':
      if (p.notification_type !== undefined && ASKING_NOTIFICATIONS.has(p.notification_type)) return { activity: 'needs-input' };
      return p.notification_type === 'idle_prompt' ? { activity: 'waiting' } : NONE;
    case 'Stop':
      return { activity: 'waiting' };
    case 'StopFailure':
      return { activity: 'error', stopFailure: payload };
    case 'PreCompact':
      return { activity: 'working' };
    case 'SessionStart':
      return sessionStart('claude', p);
    default:
      return NONE; // SessionEnd and anything else: no activity
  }
}

/** Gemini CLI 0.61.0's hook events. */
function geminiReport(event: string, payload: unknown): HookReport {
  const p = fields(payload);
  switch (event) {
    case 'BeforeAgent':
    case 'BeforeTool':
      return { activity: 'working' };
    case 'Notification':
      // Its one notification type: ToolPermission, a confirmation the person must answer.
      return { activity: 'needs-input' };
    case 'AfterAgent':
      return { activity: 'waiting' };
    case 'PreCompress':
      return { activity: 'working' };
    case 'SessionStart':
      return sessionStart('gemini', p);
    default:
      return NONE;
  }
}

/** Codex CLI 0.171.0's hook events (and its `notify` program, which agents launched before its hooks call). */
function codexReport(event: string, payload: unknown): HookReport {
  const p = fields(payload);
  switch (event) {
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PreCompact':
      return { activity: 'working' };
    case 'PermissionRequest':
      return { activity: 'needs-input' };
    case 'Stop':
    case 'Interrupt':
      return { activity: 'waiting' };
    case 'SessionStart': {
      // Codex runs it as a thread's first turn starts (UserPromptSubmit follows at once), not when
      // the composer opens: the id only, no activity of its own.
      const started = sessionStart('codex', p);
      return started.agentSession === undefined ? NONE : { activity: null, agentSession: started.agentSession };
    }
    case 'notify':
      return p.type === 'agent-turn-complete' ? { activity: 'waiting' } : NONE;
    default:
      return NONE;
  }
}

/** opencode 1.18.33's events, as Mori's own plugin names them (opencode/hooks.ts). */
function opencodeReport(event: string): HookReport {
  switch (event) {
    case 'Busy':
    case 'Answered':
      return { activity: 'working' };
    case 'PermissionAsked':
    case 'QuestionAsked':
      return { activity: 'needs-input' };
    case 'Idle':
      return { activity: 'waiting' };
    default:
      return NONE;
  }
}

/** What a hook call of `event` with `payload` (null: unread, too big) reports for an agent of `profile`. */
export function hookReport(profile: ProfileName, event: string, payload: unknown): HookReport {
  if (profile === 'claude') return claudeReport(event, payload);
  if (profile === 'gemini') return geminiReport(event, payload);
  if (profile === 'codex') return codexReport(event, payload);
  if (profile === 'opencode') return opencodeReport(event);
  return NONE;
}
