// GitHub Copilot CLI's hooks (DESIGN.md §4 "Hooks"): the layer is a plugin directory Mori writes per
// launch (`plugin.json` and `hooks/hooks.json`) and names with `--plugin-dir`, so nothing is written
// into $COPILOT_HOME (the person's ~/.copilot) or the project's `.github/hooks/`. Plugin hooks run
// whether or not the folder is trusted. The same layer turns off its client telemetry
// (`--disable-client-telemetry`) and its update download (COPILOT_AUTO_UPDATE=false). Its events and
// payloads (camelCase, `sessionId`; checked against 1.0.102) become activities and its
// sessionStart's id. errorOccurred fires once per retried attempt, so it reports nothing (limits.ts
// reads the end of a failed turn). A permission refused with Esc ends the turn with no hook at all
// (1.0.102): the screen says waiting then. Pure: the caller writes the layer's files.
import path from 'node:path';
import * as z from 'zod/mini';
import '../../../common/zod-english.js';
import type { AgentHooks } from '../profile.js';
import { NONE, sessionStart, type HookReport } from '../hooks/hook-events.js';
import { HOOK_TIMEOUT_S, type HookLayer, type HookPlace } from '../hooks/hook-layers.js';
import { reportCommand } from '../hooks/report-script.js';
import { UUID_ID_FORM } from '../launch-helpers.js';

/** Copilot CLI's events Mori registers (its hook types, 1.0.102). */
export const COPILOT_HOOK_EVENTS = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'permissionRequest', 'notification', 'agentStop', 'preCompact', 'sessionEnd'] as const;

/** The plugin's name in its listings; a plugin needs a manifest to be loaded from a directory. */
export const COPILOT_PLUGIN_NAME = 'mori-hooks';

/** Its Notification types that mean a person must answer. */
const ASKING_NOTIFICATIONS = new Set(['permission_prompt', 'elicitation_dialog']);

/** Longer than any id or type it sends: anything past it is not one of ours. */
const SHORT = 200;
const CopilotPayload = z.looseObject({
  sessionId: z.optional(z.string().check(z.maxLength(SHORT))),
  source: z.optional(z.string().check(z.maxLength(SHORT))),
  notification_type: z.optional(z.string().check(z.maxLength(SHORT))),
});

/** The plugin's files: its manifest and its hooks, each running Mori's report script into this launch's spool. */
export function copilotPluginFiles(place: HookPlace): { path: string; text: string }[] {
  const hooks: Record<string, unknown> = {};
  for (const event of COPILOT_HOOK_EVENTS) {
    hooks[event] = [{ type: 'command', bash: reportCommand(place.script, place.spoolDir, event), timeoutSec: HOOK_TIMEOUT_S }];
  }
  const manifest = { name: COPILOT_PLUGIN_NAME, version: '1.0.0', description: "Mori's activity reports for this session" };
  return [
    { path: path.join(place.pluginDir, 'plugin.json'), text: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: path.join(place.pluginDir, 'hooks', 'hooks.json'), text: `${JSON.stringify({ version: 1, hooks }, null, 2)}\n` },
  ];
}

function copilotReport(event: string, payload: unknown): HookReport {
  const parsed = CopilotPayload.safeParse(payload);
  const p = parsed.success ? parsed.data : {};
  switch (event) {
    case 'userPromptSubmitted':
    case 'preToolUse':
    case 'postToolUse':
    case 'preCompact':
      return { activity: 'working' };
    case 'permissionRequest':
      return { activity: 'needs-input' };
    case 'notification':
      if (p.notification_type !== undefined && ASKING_NOTIFICATIONS.has(p.notification_type)) return { activity: 'needs-input' };
      return NONE;
    case 'agentStop':
      return { activity: 'waiting' };
    case 'sessionStart':
      // Its sources are "new" and "resume"; Mori's words for them are startup and resume.
      if (p.sessionId === undefined) return { activity: 'waiting' };
      return sessionStart(UUID_ID_FORM, { session_id: p.sessionId, source: p.source === 'new' || p.source === undefined ? 'startup' : p.source });
    default:
      return NONE;
  }
}

export const copilotHooks: AgentHooks = {
  layer(args, place): HookLayer {
    return {
      args: ['--plugin-dir', place.pluginDir, '--disable-client-telemetry', ...args],
      env: { COPILOT_AUTO_UPDATE: 'false' },
      files: copilotPluginFiles(place),
    };
  },
  report: copilotReport,
};
