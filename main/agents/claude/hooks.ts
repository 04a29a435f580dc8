// Claude Code's hooks (DESIGN.md §4 "Hooks"): the layer is `--settings <file>` (merged over the
// user/project/local settings; hook arrays from every layer all run), the file in Mori's home; its
// events (names and payloads checked in its 2.1.332 binary) become activities, its SessionStart's id
// and its StopFailure's usage limit (limit-hook.ts). Pure: the caller writes the layer's files.
import type { AgentHooks } from '../profile.js';
import { fields, NONE, sessionStart, type HookReport } from '../hooks/hook-events.js';
import { HOOK_TIMEOUT_S, hooksSetting } from '../hooks/hook-layers.js';
import { UUID_ID_FORM } from '../launch-helpers.js';
import { hookUsageLimit } from './limit-hook.js';

/** Claude Code's events Mori registers (names and payloads checked in its 2.1.332 binary). */
export const CLAUDE_HOOK_EVENTS = [
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

/** Claude's Notification types that mean a person must answer. */
const ASKING_NOTIFICATIONS = new Set(['permission_prompt', 'elicitation_dialog']);

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
      return sessionStart(UUID_ID_FORM, p);
    default:
      return NONE; // SessionEnd and anything else: no activity
  }
}

export const claudeHooks: AgentHooks = {
  layer(args, place) {
    const text = `${JSON.stringify({ hooks: hooksSetting(CLAUDE_HOOK_EVENTS, place, HOOK_TIMEOUT_S) }, null, 2)}\n`;
    return { args: ['--settings', place.settingsFile, ...args], env: {}, files: [{ path: place.settingsFile, text }] };
  },
  report: claudeReport,
  usageLimit: hookUsageLimit,
};
