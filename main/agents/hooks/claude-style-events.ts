// The Claude-style hook events (DESIGN.md §4 "Hooks"): the event names and payloads Claude Code
// defined and Qwen Code took over (checked in Claude Code 2.1.332's binary and Qwen Code 0.24.4's
// bundle), and what each means to Mori: an activity, the agent's session id from SessionStart, the
// usage limit a StopFailure carries (each profile reads its own limit words). Pure; runs in the
// supervisor and the hook report's reader.
import { fields, NONE, sessionStart, type HookReport } from './hook-events.js';
import { UUID_ID_FORM } from '../launch-helpers.js';

/** The events Mori registers with a Claude-style CLI. */
export const CLAUDE_STYLE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'Notification',
  'Stop',
  'StopFailure',
  'PreCompact',
  'SessionEnd',
] as const;

/** Notification types that mean a person must answer. */
const ASKING_NOTIFICATIONS = new Set(['permission_prompt', 'elicitation_dialog']);

export function claudeStyleReport(event: string, payload: unknown): HookReport {
  const p = fields(payload);
  switch (event) {
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PreCompact':
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
    case 'SessionStart':
      return sessionStart(UUID_ID_FORM, p);
    default:
      return NONE; // SessionEnd and anything else: no activity
  }
}
