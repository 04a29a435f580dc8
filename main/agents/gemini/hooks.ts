// Gemini CLI's hooks (DESIGN.md §4 "Hooks"): the layer is its system-defaults file, the lowest
// settings layer, named by GEMINI_CLI_SYSTEM_DEFAULTS_PATH (its `hooks` arrays concatenate with the
// other layers'); it reads that file only from a root-owned path closed to others, checked once the
// file is written (defaults-check.ts). Its events (HookEventName, 0.61.0) become activities and its
// SessionStart's id. Pure but for that check: the caller writes the layer's files.
import type { AgentHooks } from '../profile.js';
import { fields, NONE, sessionStart, type HookReport } from '../hooks/hook-events.js';
import { HOOK_TIMEOUT_MS, hooksSetting } from '../hooks/hook-layers.js';
import { UUID_ID_FORM } from '../launch-helpers.js';
import { geminiDefaultsRefusal } from './defaults-check.js';

/** Gemini CLI's events Mori registers (its HookEventName enum, 0.61.0). */
export const GEMINI_HOOK_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'Notification', 'AfterAgent', 'PreCompress', 'SessionEnd'] as const;

/** The variable naming Gemini CLI's system-defaults settings file. */
export const GEMINI_DEFAULTS_VAR = 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH';

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
      return sessionStart(UUID_ID_FORM, p);
    default:
      return NONE;
  }
}

export const geminiHooks: AgentHooks = {
  layer(args, place) {
    const text = `${JSON.stringify({ hooks: hooksSetting(GEMINI_HOOK_EVENTS, place, HOOK_TIMEOUT_MS) }, null, 2)}\n`;
    return { args: [...args], env: { [GEMINI_DEFAULTS_VAR]: place.settingsFile }, files: [{ path: place.settingsFile, text }] };
  },
  report: geminiReport,
  refusal(place) {
    const skipped = geminiDefaultsRefusal(place.settingsFile);
    return skipped === null
      ? null
      : `Gemini CLI reads a system-defaults file (its only settings layer Mori can own) only when it and every directory above it are owned by root and writable by no one else, and ${skipped}`;
  },
};
